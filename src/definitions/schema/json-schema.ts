/**
 * The subset of JSON Schema agentcall emits for tool parameters.
 *
 * A type alias rather than an interface, so it is assignable to the openai SDK's `FunctionParameters`.
 */
export type JsonSchema = {
  type?:
    | ('string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null')
    | ('string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null')[];
  description?: string;
  enum?: (string | number | null)[];
  examples?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
};

/** The JSON Schema type names agentcall emits (one of {@link JsonSchema}'s `type`). */
export type JsonSchemaType = Exclude<NonNullable<JsonSchema['type']>, readonly unknown[]>;
