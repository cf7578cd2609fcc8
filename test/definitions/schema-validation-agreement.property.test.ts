import 'reflect-metadata';
import Ajv from 'ajv';
import { ArrayMaxSize, ArrayMinSize, IsInt, IsNumber, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import type { ClassType } from '../../src/metadata/options';
import type { ToolDefinition } from '../../src/toolCall/type';
import { sampleTools } from '../../samples/tools';

/**
 * A value the emitted JSON Schema accepts is one `parseParams` accepts, and the reverse, for generated DTO
 * shapes and every sample tool. Excluded by name (stated in docs/writing-tools.md):
 * - `null` for an optional field in a non-strict schema: validation reads it as absent (strict-mode models send
 *   it), the loose schema does not show it;
 * - in strict mode, `minLength` / `maxLength`: OpenAI's strict mode refuses them, so only validation enforces them;
 * - in strict mode, an optional field left out: the strict schema requires every key, validation reads it as absent;
 * - string lengths: class-validator counts what validator.js counts, so generated strings are ASCII.
 */

type Bounds = { min?: number; max?: number };
type Leaf =
  | { kind: 'string'; length: Bounds }
  | { kind: 'integer' | 'number'; range: Bounds }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: string[] };
type Shape =
  | Leaf
  | { kind: 'nested'; fields: Field[] }
  | { kind: 'array'; items: Leaf | { kind: 'nested'; fields: Field[] }; size: Bounds };
type Field = { name: string; optional: boolean; shape: Shape };

const SEED = 20261201;

const boundsArb = (lo: number, hi: number): fc.Arbitrary<Bounds> =>
  fc
    .tuple(
      fc.option(fc.integer({ min: lo, max: hi }), { nil: undefined }),
      fc.option(fc.integer({ min: lo, max: hi }), { nil: undefined }),
    )
    .map(([a, b]) => (a !== undefined && b !== undefined && a > b ? { min: b, max: a } : { min: a, max: b }));

const leafArb = (strict: boolean): fc.Arbitrary<Leaf> =>
  fc.oneof(
    (strict ? fc.constant<Bounds>({}) : boundsArb(0, 6)).map((length): Leaf => ({ kind: 'string', length })),
    fc
      .tuple(fc.constantFrom('integer' as const, 'number' as const), boundsArb(-5, 10))
      .map(([kind, range]): Leaf => ({ kind, range })),
    fc.constant<Leaf>({ kind: 'boolean' }),
    fc
      .uniqueArray(fc.constantFrom('red', 'green', 'blue', 'x'), { minLength: 1, maxLength: 3 })
      .map((values): Leaf => ({ kind: 'enum', values })),
  );

function fieldsArb(strict: boolean, depth: number): fc.Arbitrary<Field[]> {
  const nested = (): fc.Arbitrary<{ kind: 'nested'; fields: Field[] }> =>
    fieldsArb(strict, depth - 1).map((fields) => ({ kind: 'nested' as const, fields }));
  const item = depth > 0 ? fc.oneof(leafArb(strict), nested()) : leafArb(strict);
  const shape: fc.Arbitrary<Shape> = fc.oneof(
    { weight: 3, arbitrary: leafArb(strict) },
    { weight: depth > 0 ? 1 : 0, arbitrary: depth > 0 ? nested() : leafArb(strict) },
    {
      weight: 1,
      arbitrary: fc.tuple(item, boundsArb(0, 3)).map(([items, size]): Shape => ({ kind: 'array', items, size })),
    },
  );
  return fc
    .array(fc.tuple(fc.boolean(), shape), { minLength: 1, maxLength: 4 })
    .map((list) => list.map(([optional, s], i) => ({ name: `f${i}`, optional, shape: s })));
}

/** Build a DTO class at run time, decorated as a user would write it. */
function buildDto(fields: readonly Field[]): ClassType {
  const Dto = class {};
  for (const { name, optional, shape } of fields) {
    const proto = Dto.prototype;
    const leafType = (leaf: Leaf | { kind: 'nested'; fields: Field[] }): unknown =>
      leaf.kind === 'nested'
        ? buildDto(leaf.fields)
        : leaf.kind === 'string' || leaf.kind === 'enum'
          ? String
          : leaf.kind === 'boolean'
            ? Boolean
            : Number;
    const decorators: PropertyDecorator[] = [];
    const level = (
      leaf: Leaf | { kind: 'nested'; fields: Field[] },
      each: boolean,
    ): { type: unknown; enum?: string[] } => {
      const type = leafType(leaf);
      if (leaf.kind === 'string') {
        if (each) decorators.push(IsString({ each }));
        if (leaf.length.min !== undefined) decorators.push(MinLength(leaf.length.min, { each }));
        if (leaf.length.max !== undefined) decorators.push(MaxLength(leaf.length.max, { each }));
      }
      if (leaf.kind === 'integer' || leaf.kind === 'number') {
        decorators.push(leaf.kind === 'integer' ? IsInt({ each }) : IsNumber({}, { each }));
        if (leaf.range.min !== undefined) decorators.push(Min(leaf.range.min, { each }));
        if (leaf.range.max !== undefined) decorators.push(Max(leaf.range.max, { each }));
      }
      return { type, ...(leaf.kind === 'enum' && { enum: leaf.values }) };
    };
    if (shape.kind === 'array') {
      const { type, enum: values } = level(shape.items, true);
      if (shape.size.min !== undefined) decorators.push(ArrayMinSize(shape.size.min));
      if (shape.size.max !== undefined) decorators.push(ArrayMaxSize(shape.size.max));
      Reflect.defineMetadata('design:type', Array, proto, name);
      decorators.push(Param({ optional, type: () => [type as ClassType], ...(values && { enum: values }) }));
    } else {
      const { type, enum: values } = level(shape, false);
      Reflect.defineMetadata('design:type', type, proto, name);
      decorators.push(Param({ optional, ...(values && { enum: values }) }));
    }
    for (const decorate of decorators.reverse()) decorate(proto, name);
  }
  return Dto;
}

function buildTool(fields: readonly Field[], strict: boolean): ToolDefinition {
  const Dto = buildDto(fields);
  const Tools = class {
    run(dto: object) {
      return dto;
    }
  };
  Reflect.defineMetadata('design:paramtypes', [Dto], Tools.prototype, 'run');
  Param()(Tools.prototype, 'run', 0);
  Tool({ strict })(Tools.prototype, 'run', Object.getOwnPropertyDescriptor(Tools.prototype, 'run')!);
  return toolsFrom(new Tools())[0];
}

/** Values around a shape: mostly well-formed, often just outside a bound, sometimes of another type or absent. */
function valueArb(fields: readonly Field[], strict: boolean): fc.Arbitrary<Record<string, unknown>> {
  const leafValue = (leaf: Leaf | { kind: 'nested'; fields: Field[] }): fc.Arbitrary<unknown> => {
    switch (leaf.kind) {
      case 'string':
        return fc.string({ maxLength: 8 });
      case 'integer':
      case 'number':
        return fc.oneof(fc.integer({ min: -7, max: 12 }), fc.double({ min: -7, max: 12, noNaN: true }));
      case 'boolean':
        return fc.boolean();
      case 'enum':
        return fc.constantFrom(...leaf.values, 'purple');
      case 'nested':
        return valueArb(leaf.fields, strict);
    }
  };
  // `{}` leaves a nested DTO's optional fields out: in strict mode that is the exclusion above.
  const wrong = fc.constantFrom<unknown>('text', 3, true, [], ...(strict ? [] : [{}]));
  const entries = fields.map(({ name, optional, shape }) => {
    const good = shape.kind === 'array' ? fc.array(leafValue(shape.items), { maxLength: 4 }) : leafValue(shape);
    const options = [
      { weight: 8, arbitrary: good },
      { weight: 1, arbitrary: wrong },
      // A strict schema lists every field as required; a strict-mode model sends null for one it leaves out.
      ...(strict && optional ? [] : [{ weight: 1, arbitrary: fc.constant(undefined) }]),
      // Strict schemas declare optional fields nullable; a loose schema's optional null is excluded (see above).
      ...(strict || !optional ? [{ weight: 1, arbitrary: fc.constant(null) }] : []),
    ];
    return fc.tuple(fc.constant(name), fc.oneof(...options));
  });
  return fc.tuple(fc.tuple(...entries), fc.integer({ min: 0, max: 9 })).map(([pairs, extra]) => {
    const value: Record<string, unknown> = {};
    for (const [name, v] of pairs) if (v !== undefined) value[name] = v;
    if (extra === 0) value.unexpected = 1;
    return value;
  });
}

const ajv = new Ajv({ strict: false, allErrors: false });

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
          const tool = buildTool(fields, strict);
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
