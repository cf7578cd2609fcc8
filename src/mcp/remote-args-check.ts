import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { safeParseJsonArgs, type ToolParseResult } from '../index';

/** Checks arguments against remote tools' JSON Schemas; one per `mcpTools` call, so compiled schemas are shared. */
export type RemoteArgsChecker = {
  /** A `parseParams` for one tool: JSON text → object → JSON Schema check, with `path: message` lines on failure. */
  parserFor(toolName: string, inputSchema: object): (rawArgs: string) => ToolParseResult<Record<string, unknown>>;
};

/**
 * Build the checker. Schemas that declare draft 2020-12 (or 2019-09) are compiled by Ajv's 2020 build, the rest
 * (draft-07, what most servers send, and schemas without `$schema`) by its default build; formats come from
 * `ajv-formats`. A schema Ajv cannot compile is not checked here: the server still validates it.
 *
 * @internal
 */
export function createRemoteArgsChecker(): RemoteArgsChecker {
  const options = { strict: false, allErrors: true, logger: false } as const;
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const ajvFor = (dialect: unknown): Ajv => {
    if (typeof dialect === 'string' && /20(20-12|19-09)/.test(dialect)) {
      return (draft2020 ??= withFormats(new Ajv2020(options)));
    }
    return (draft07 ??= withFormats(new Ajv(options)));
  };

  return {
    parserFor(toolName, inputSchema) {
      const { $schema, ...schema } = inputSchema as Record<string, unknown>;
      let validate: ValidateFunction | undefined;
      try {
        validate = ajvFor($schema).compile(schema);
      } catch {
        validate = undefined;
      }
      const header = `Invalid arguments for tool "${toolName}":`;
      const fail = (lines: readonly string[]) => ({
        success: false as const,
        errorMessage: [header, ...lines].join('\n'),
      });
      return (rawArgs) => {
        const parsed = safeParseJsonArgs(rawArgs);
        if (!parsed.success) return fail([parsed.errorMessage.replace(/^Invalid arguments: /, '')]);
        const args = parsed.data;
        if (typeof args !== 'object' || args === null || Array.isArray(args)) {
          return fail(['the arguments must be a JSON object']);
        }
        if (validate && !validate(args)) return fail([...new Set((validate.errors ?? []).map(describeError))]);
        return { success: true, data: args as Record<string, unknown> };
      };
    },
  };
}

function withFormats<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}

/** One Ajv error as the line a local tool's validation would give: `items[1].qty: qty must be >= 1`. */
function describeError(error: ErrorObject): string {
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    return `${formatPath([...segments, params.missingProperty])}: ${params.missingProperty} is required`;
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const extra = params.additionalProperty;
    return `${formatPath([...segments, extra])}: property ${extra} should not exist`;
  }
  const message = error.message ?? `fails ${error.keyword}`;
  if (segments.length === 0) return `the arguments ${message}`;
  const last = segments[segments.length - 1];
  return `${formatPath(segments)}: ${/^\d+$/.test(last) ? formatPath(segments) : last} ${message}`;
}

function formatPath(segments: readonly string[]): string {
  return segments.reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    return path === '' ? segment : `${path}.${segment}`;
  }, '');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
