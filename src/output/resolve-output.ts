import { DEFAULT_OUTPUT_RETRIES } from '../constants';
import type {
  OutputFormat,
  OutputMode,
  OutputStandardSchema,
  StandardSchemaResult,
} from '../agentCall/state/output-types';
import type { RunAgentCallProps } from '../agentCall/type';
import { applyProfile } from '../definitions/profiles/apply-profile';
import { PROFILE_RULES } from '../definitions/profiles/profile-rules';
import { SCHEMA_PROFILES } from '../definitions/profiles/schema-profile';
import { standardSchemaOf } from '../definitions/standard/standard-schema-of';
import { OutputSchemaError } from '../errors/output-schema.error';
import { getErrText } from '../text/error-text';
import { isRecord } from '../utils/is-record';
import { dropOptionalNulls } from './drop-optional-nulls';
import { outputName } from './output-name';

const OUTPUT_MODES: readonly OutputMode[] = ['json_schema', 'instructions'];

/**
 * A run's `output` made ready for the core loop: a DTO class becomes its Standard Schema (`standardSchemaOf`: the
 * same metadata and validation pipeline as tool parameters), the JSON Schema is read and written for
 * `outputProfile`, and the name, mode and retries are settled. Anything that makes `output` unusable comes back
 * as an {@link OutputSchemaError}, which ends the run before its first request.
 *
 * @internal
 */
export function resolveOutput(props: RunAgentCallProps<unknown>): OutputFormat | Error {
  try {
    return readOutput(props);
  } catch (error) {
    return OutputSchemaError.isInstance(error)
      ? error
      : new OutputSchemaError(`output cannot be used: ${error instanceof Error ? error.message : getErrText(error)}`, {
          cause: error,
        });
  }
}

function readOutput(props: RunAgentCallProps<unknown>): OutputFormat {
  const spec = props.output;
  if (props.body.response_format !== undefined && props.body.response_format !== null) {
    throw new OutputSchemaError(
      'output and body.response_format cannot both be set: output sends its own response_format',
    );
  }
  const className = typeof spec === 'function' ? spec.name : undefined;
  const standard = typeof spec === 'function' ? standardSchemaOf(spec as new () => object) : spec;
  if (!isStandardSchema(standard)) {
    throw new OutputSchemaError('output must be a class-validator DTO class or a Standard Schema v1 object');
  }
  const profile = props.outputProfile ?? 'openai';
  if (!SCHEMA_PROFILES.includes(profile)) {
    throw new OutputSchemaError(`unknown outputProfile "${String(profile)}"; use one of ${SCHEMA_PROFILES.join(', ')}`);
  }
  const mode = props.outputMode ?? 'json_schema';
  if (!OUTPUT_MODES.includes(mode)) {
    throw new OutputSchemaError(`unknown outputMode "${String(mode)}"; use one of ${OUTPUT_MODES.join(', ')}`);
  }
  const retries = props.outputRetries ?? DEFAULT_OUTPUT_RETRIES;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new OutputSchemaError(`outputRetries must be a non-negative integer, not ${String(retries)}`);
  }
  const source = jsonSchemaOf(standard);
  // A class whose fields carry no @Param gives an empty schema: every answer would fail, after every retry.
  if (className !== undefined && !(isRecord(source.properties) && Object.keys(source.properties).length > 0)) {
    throw new OutputSchemaError(
      `output class ${className} has no field the model can fill: decorate each field of the answer with @Param() ` +
        '(a field without it is neither shown to the model nor accepted)',
    );
  }
  const profiled = applyProfile(source, PROFILE_RULES[profile]);
  if (profiled.problems.length) {
    throw new OutputSchemaError(
      `output cannot be sent with outputProfile "${profile}": ${profiled.problems.join('; ')}`,
    );
  }
  const strict = PROFILE_RULES[profile].strictForm;
  const validate = standard['~standard'].validate;
  return {
    name: outputName(props.outputName, className, source.title),
    schema: profiled.schema,
    strict,
    mode,
    retries,
    // agentcall's own validation drops optional nulls already; another library's would refuse them.
    validate:
      strict && standard['~standard'].vendor !== 'agentcall'
        ? (value): StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>> =>
            validate(dropOptionalNulls(source, value))
        : validate,
  };
}

/** Whether `value` is a Standard Schema v1 object. @internal */
export function isStandardSchema(value: unknown): value is OutputStandardSchema<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return isRecord(props) && props.version === 1 && typeof props.validate === 'function';
}

/**
 * The schema's JSON Schema: agentcall's own `jsonSchema` field, else Standard JSON Schema v1's `input`.
 *
 * @internal
 */
export function jsonSchemaOf(standard: OutputStandardSchema<unknown>): Record<string, unknown> {
  const own = standard.jsonSchema;
  const converter = standard['~standard'].jsonSchema;
  let schema: unknown;
  if (isRecord(own)) schema = own;
  else if (converter && typeof converter.input === 'function') {
    schema = converter.input({ target: 'draft-2020-12' });
  } else {
    const vendor = String(standard['~standard'].vendor);
    throw new OutputSchemaError(
      `output is a Standard Schema (vendor "${vendor.slice(0, 100)}") that gives no JSON Schema: the model must be ` +
        'shown one. Use a schema that implements Standard JSON Schema v1 (~standard.jsonSchema), or a DTO class',
    );
  }
  if (!isRecord(schema)) throw new OutputSchemaError('output gave a JSON Schema that is not an object');
  // `$schema` names the dialect for validators; OpenAI's structured outputs do not take it.
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
