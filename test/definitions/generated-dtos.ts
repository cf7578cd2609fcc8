import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsInt,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import type { SchemaProfile } from '../../src/definitions/profiles/schema-profile';
import { toolsFrom } from '../../src/definitions/tools-from';
import type { ClassType } from '../../src/metadata/options';
import type { ToolDefinition } from '../../src/toolCall/type';

/**
 * Generated DTO shapes, the classes a user would write for them, and values around them: shared by the
 * schema/validation agreement properties.
 */

type Bounds = { min?: number; max?: number };
type Leaf =
  | { kind: 'string'; length: Bounds }
  | { kind: 'pattern'; pattern: string }
  | { kind: 'integer' | 'number'; range: Bounds }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'intEnum'; values: number[] };
type Shape =
  | Leaf
  | { kind: 'nested'; fields: Field[] }
  | { kind: 'array'; items: Leaf | { kind: 'nested'; fields: Field[] }; size: Bounds };
/** One generated field: its name, whether it is optional, and what it holds. */
export type Field = { name: string; optional: boolean; shape: Shape };

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
    // The second one has a lookahead, which Anthropic's strict mode refuses.
    fc.constantFrom('^[ab]+$', '^(?=a)[ab]*$').map((pattern): Leaf => ({ kind: 'pattern', pattern })),
    fc
      .uniqueArray(fc.constantFrom(1, 2, 3), { minLength: 1, maxLength: 3 })
      .map((values): Leaf => ({ kind: 'intEnum', values })),
    fc
      .tuple(fc.constantFrom('integer' as const, 'number' as const), boundsArb(-5, 10))
      .map(([kind, range]): Leaf => ({ kind, range })),
    fc.constant<Leaf>({ kind: 'boolean' }),
    fc
      .uniqueArray(fc.constantFrom('red', 'green', 'blue', 'x'), { minLength: 1, maxLength: 3 })
      .map((values): Leaf => ({ kind: 'enum', values })),
  );

/** DTO shapes up to `depth` levels of nesting; `strict` leaves string lengths out (OpenAI strict mode cannot show them). */
export function fieldsArb(strict: boolean, depth: number): fc.Arbitrary<Field[]> {
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
export function buildDto(fields: readonly Field[]): ClassType {
  const Dto = class {};
  for (const { name, optional, shape } of fields) {
    const proto = Dto.prototype;
    const leafType = (leaf: Leaf | { kind: 'nested'; fields: Field[] }): unknown =>
      leaf.kind === 'nested'
        ? buildDto(leaf.fields)
        : leaf.kind === 'string' || leaf.kind === 'enum' || leaf.kind === 'pattern'
          ? String
          : leaf.kind === 'boolean'
            ? Boolean
            : Number;
    const decorators: PropertyDecorator[] = [];
    const level = (
      leaf: Leaf | { kind: 'nested'; fields: Field[] },
      each: boolean,
    ): { type: unknown; enum?: (string | number)[] } => {
      const type = leafType(leaf);
      if (leaf.kind === 'string') {
        if (each) decorators.push(IsString({ each }));
        if (leaf.length.min !== undefined) decorators.push(MinLength(leaf.length.min, { each }));
        if (leaf.length.max !== undefined) decorators.push(MaxLength(leaf.length.max, { each }));
      }
      if (leaf.kind === 'pattern') decorators.push(Matches(new RegExp(leaf.pattern), { each }));
      if (leaf.kind === 'integer' || leaf.kind === 'number') {
        decorators.push(leaf.kind === 'integer' ? IsInt({ each }) : IsNumber({}, { each }));
        if (leaf.range.min !== undefined) decorators.push(Min(leaf.range.min, { each }));
        if (leaf.range.max !== undefined) decorators.push(Max(leaf.range.max, { each }));
      }
      return { type, ...((leaf.kind === 'enum' || leaf.kind === 'intEnum') && { enum: leaf.values }) };
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

/** A tool class whose one method takes the generated DTO, and its definition built with `options`. */
export function buildTool(
  fields: readonly Field[],
  options: { strict?: boolean; profile?: SchemaProfile } = {},
): { tool: ToolDefinition; Tools: ClassType } {
  const Dto = buildDto(fields);
  const Tools = class {
    run(dto: object) {
      return dto;
    }
  };
  Reflect.defineMetadata('design:paramtypes', [Dto], Tools.prototype, 'run');
  Param()(Tools.prototype, 'run', 0);
  Tool({ strict: options.strict })(Tools.prototype, 'run', Object.getOwnPropertyDescriptor(Tools.prototype, 'run')!);
  return { tool: toolsFrom([new Tools()], { profile: options.profile })[0], Tools };
}

/** Values around a shape: mostly well-formed, often just outside a bound, sometimes of another type or absent. */
export function valueArb(fields: readonly Field[], strict: boolean): fc.Arbitrary<Record<string, unknown>> {
  const leafValue = (leaf: Leaf | { kind: 'nested'; fields: Field[] }): fc.Arbitrary<unknown> => {
    switch (leaf.kind) {
      case 'string':
        return fc.string({ maxLength: 8 });
      case 'integer':
      case 'number':
        return fc.oneof(fc.integer({ min: -7, max: 12 }), fc.double({ min: -7, max: 12, noNaN: true }));
      case 'boolean':
        return fc.boolean();
      case 'pattern':
        return fc.oneof(fc.string({ maxLength: 4, unit: fc.constantFrom('a', 'b') }), fc.string({ maxLength: 4 }));
      case 'enum':
        return fc.constantFrom(...leaf.values, 'purple');
      case 'intEnum':
        return fc.constantFrom(...leaf.values, 4);
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
