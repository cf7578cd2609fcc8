import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { getErrText, safeParseJsonArgs, type ToolParseResult } from '../index';
import { isLinearRegex, linearRegExp } from './linear-regexp';
import { McpSchemaError } from './mcp-schema-error';
import { remoteSchemaProblem, type RemoteSchemaCaps } from './remote-schema-caps';
import { uniqueItemsKeyword } from './unique-items';

/** How one remote tool's arguments are checked: a parser, or why its schema is not used. */
export type RemoteArgsCheck =
  | { readonly parse: (rawArgs: string) => ToolParseResult<Record<string, unknown>>; readonly error?: undefined }
  | { readonly parse: (rawArgs: string) => ToolParseResult<Record<string, unknown>>; readonly error: McpSchemaError };

/** Checks arguments against remote tools' JSON Schemas; one per `mcpTools` call, so compiled schemas are shared. */
export type RemoteArgsChecker = {
  /**
   * The check for one tool: JSON text → object → JSON Schema check, with `path: message` lines on failure. A
   * schema over a cap, recursive without end or not compilable gives an `error` (and a parser that only reads
   * the JSON object).
   */
  checkFor(toolName: string, inputSchema: object): RemoteArgsCheck;
};

/**
 * Build the checker. Schemas that declare draft 2020-12 (or 2019-09) are compiled by Ajv's 2020 build, the rest
 * (draft-07, what most servers send, and schemas without `$schema`) by its default build; formats come from
 * `ajv-formats`. Every pattern (`pattern`, `patternProperties`, the `regex` format) runs on a linear-time engine
 * and `uniqueItems` is checked with a hash set, so a check costs time linear in the arguments' size whatever
 * the schema says; a schema is inspected against `caps` before Ajv compiles it.
 *
 * @internal
 */
export function createRemoteArgsChecker(caps: RemoteSchemaCaps): RemoteArgsChecker {
  const options = { strict: false, allErrors: true, logger: false, code: { regExp: linearRegExp } } as const;
  let draft07: Ajv | undefined;
  let draft2020: Ajv2020 | undefined;
  const ajvFor = (dialect: unknown): Ajv => {
    if (typeof dialect === 'string' && /20(20-12|19-09)/.test(dialect)) {
      return (draft2020 ??= hardened(new Ajv2020(options)));
    }
    return (draft07 ??= hardened(new Ajv(options)));
  };

  return {
    checkFor(toolName, inputSchema) {
      const { $schema, ...schema } = inputSchema as Record<string, unknown>;
      let error = remoteSchemaProblem(toolName, schema, caps);
      let validate: ValidateFunction | undefined;
      if (!error) {
        try {
          validate = ajvFor($schema).compile(schema);
        } catch (cause) {
          const reason = getErrText(cause, 'Ajv could not compile it').slice(0, 200);
          error = new McpSchemaError(toolName, 'not_compilable', reason);
        }
      }
      const header = `Invalid arguments for tool "${toolName}":`;
      const fail = (lines: readonly string[]) => ({
        success: false as const,
        errorMessage: [header, ...lines].join('\n'),
      });
      const parse = (rawArgs: string): ToolParseResult<Record<string, unknown>> => {
        const parsed = safeParseJsonArgs(rawArgs);
        if (!parsed.success) return fail([parsed.errorMessage.replace(/^Invalid arguments: /, '')]);
        const args = parsed.data;
        if (typeof args !== 'object' || args === null || Array.isArray(args)) {
          return fail(['the arguments must be a JSON object']);
        }
        if (validate && !checks(validate, args)) return fail([...new Set((validate.errors ?? []).map(describeError))]);
        return { success: true, data: args as Record<string, unknown> };
      };
      return error ? { parse, error } : { parse };
    },
  };
}

/** Run a compiled check; one that overflows the stack anyway (a cycle the inspection could not see) fails. */
function checks(validate: ValidateFunction, args: object): boolean {
  try {
    return validate(args);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    validate.errors = [
      {
        keyword: 'recursion',
        instancePath: '',
        schemaPath: '#',
        params: {},
        message: 'cannot be checked: the remote schema recurses without end',
      },
    ];
    return false;
  }
}

function hardened<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  ajv.addFormat('regex', isLinearRegex);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
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
