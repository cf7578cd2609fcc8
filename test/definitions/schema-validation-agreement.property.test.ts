import 'reflect-metadata';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { ToolDefinition } from '../../src/toolCall/type';
import { sampleTools } from '../../samples/tools';
import { buildTool, fieldsArb, valueArb } from './generated-dtos';

/**
 * A value the emitted JSON Schema accepts is one `parseParams` accepts, and the reverse, for generated DTO
 * shapes and every sample tool. Excluded by name (stated in docs/writing-tools.md):
 * - `null` for an optional field in a non-strict schema: validation reads it as absent (strict-mode models send
 *   it), the loose schema does not show it;
 * - in strict mode, `minLength` / `maxLength`: OpenAI's strict mode refuses them, so only validation enforces them;
 * - in strict mode, an optional field left out: the strict schema requires every key, validation reads it as absent;
 * - string lengths: class-validator counts what validator.js counts, so generated strings are ASCII.
 */

const SEED = 20261201;

// With the formats the schema names (`date-time`, `email` …) checked too, as a model-facing validator would.
const ajv = addFormats(new Ajv({ strict: false, allErrors: false }));

function agrees(tool: ToolDefinition, value: unknown): { schema: boolean; validation: boolean; detail: string } {
  const schema = ajv.validate(tool.schema.type === 'function' ? tool.schema.function.parameters! : {}, value);
  const parsed = tool.parseParams!(JSON.stringify(value));
  return {
    schema,
    validation: parsed.success,
    detail: parsed.success ? (ajv.errorsText(ajv.errors) ?? '') : parsed.errorMessage,
  };
}

describe('schema and validation agree', () => {
  it.each([false, true])('for generated DTO shapes (strict: %s)', (strict) => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fieldsArb(strict, 2).chain((fields) =>
          fc.tuple(fc.constant(fields), fc.array(valueArb(fields, strict), { minLength: 4, maxLength: 4 })),
        ),
        ([fields, values]) => {
          const { tool } = buildTool(fields, { strict });
          for (const value of values) {
            const verdict = agrees(tool, value);
            if (verdict.schema !== verdict.validation) {
              throw new Error(
                `schema ${verdict.schema}, validation ${verdict.validation}: ${JSON.stringify(value)}\n${verdict.detail}\n${JSON.stringify(tool.schema)}`,
              );
            }
            if (verdict.schema) accepted++;
            else refused++;
          }
        },
      ),
      { seed: SEED + (strict ? 1 : 0), numRuns: 250 },
    );
    // Both verdicts are exercised, not only one of them.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it.each(sampleTools().map((tool) => [tool.schema.type === 'function' ? tool.schema.function.name : '?', tool]))(
    'for the sample tool %s',
    (_name, tool) => {
      const parameters = tool.schema.type === 'function' ? tool.schema.function.parameters! : {};
      const json = fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: 'small' },
          fc.string({ maxLength: 6 }),
          fc.integer({ min: -3, max: 10 }),
          fc.boolean(),
          fc.array(tie('value'), { maxLength: 3 }),
          fc.dictionary(
            fc.constantFrom(...Object.keys((parameters.properties as object) ?? {}), 'other'),
            tie('value'),
            { maxKeys: 4 },
          ),
        ),
      })).value;
      fc.assert(
        fc.property(json, (value) => {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
          const verdict = agrees(tool, value);
          if (verdict.schema !== verdict.validation) {
            throw new Error(
              `schema ${verdict.schema}, validation ${verdict.validation}: ${JSON.stringify(value)}\n${verdict.detail}`,
            );
          }
        }),
        { seed: SEED, numRuns: 200 },
      );
    },
  );
});
