import type { OutputSpec, SchemaProfile } from '../state/output-types';

/** The run's typed final answer: its schema and how the schema reaches the model. `T` is the answer's type. */
export type OutputOptions<T = unknown> = {
  /**
   * A typed final answer: a class-validator DTO class (validated by the same path as tool parameters, `output` is an
   * instance of it) or a Standard Schema v1 that gives a JSON Schema. The schema goes out with every request of the
   * run (tools stay available); the final answer (a turn without tool calls) must be JSON (alone, or alone in one
   * code fence) that validates, else the model gets a feedback message and another request, up to `outputRetries`.
   * Cannot be combined with `body.response_format`.
   */
  output?: OutputSpec<T>;
  /** Feedback rounds on a final answer that fails `output` before `stopReason: 'output_invalid'` (default 2). */
  outputRetries?: number;
  /**
   * The schema profile the `output` schema is written for (default `'openai'`, `strict: false`); `'openai-strict'`
   * sends it with `strict: true` in OpenAI's strict form. The same profiles as `toolsFrom`.
   */
  outputProfile?: SchemaProfile;
  /**
   * How the `output` schema reaches the model: `'json_schema'` (default; `response_format` / `text.format`) or
   * `'instructions'` (a system message, for providers without structured output).
   */
  outputMode?: 'json_schema' | 'instructions';
  /** The name the `output` schema goes out under (default: the class name, the schema's `title`, or `'output'`). */
  outputName?: string;
};
