import { AgentcallError } from './agentcall.error';

/**
 * The `output` of a `runAgentLoop` call cannot be used: a Standard Schema that gives no JSON Schema (neither
 * `~standard.jsonSchema` nor a `jsonSchema` field), a class `standardSchemaOf` refuses, a schema the chosen
 * `outputProfile` cannot express (a free-form object in strict mode), or `body.response_format` set beside it.
 * The run ends with it as `error` (`stopReason: 'error'`) before any request; nothing runs.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, output: schemaWithoutJsonSchema });
 * OutputSchemaError.isInstance(result.error); // true, result.runTimes === 0
 */
export class OutputSchemaError extends AgentcallError {
  static {
    this.defineName('OutputSchemaError');
  }

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
