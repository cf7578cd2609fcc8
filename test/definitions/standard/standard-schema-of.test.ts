import 'reflect-metadata';
import Ajv from 'ajv';
import { IsInt, Max, Min } from 'class-validator';
import { Param, Tool, ToolDefinitionError, standardSchemaOf, toolsFrom } from '../../../src';
import type { StandardSchemaResult } from '../../../src';
import { Address, LineItem, OrderDto } from '../../fixtures/order-dtos';

class TreeNode {
  @Param() label!: string;
  @Param({ type: () => [TreeNode], optional: true }) children?: TreeNode[];
}

class Forest {
  @Param({ type: () => [TreeNode] }) trees!: TreeNode[];
}

class Tools {
  @Tool({ description: 'Forecast' })
  forecast(@Param('city') city: string, @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number) {
    return [city, days];
  }

  @Tool()
  order(@Param() order: OrderDto) {
    return order;
  }

  helper() {
    return 'not a tool';
  }
}

const issuesOf = <T>(result: StandardSchemaResult<T>) => {
  if (!('issues' in result) || !result.issues) throw new Error(`expected issues, got ${JSON.stringify(result)}`);
  return result.issues;
};

describe('standardSchemaOf(DtoClass)', () => {
  const schema = standardSchemaOf(OrderDto);

  it('is a Standard Schema v1 object from agentcall', () => {
    expect(schema['~standard'].version).toBe(1);
    expect(schema['~standard'].vendor).toBe('agentcall');
    expect(typeof schema['~standard'].validate).toBe('function');
  });

  it('returns the validated class instance and leaves the given value untouched', () => {
    const input = {
      customer: 'Ada',
      items: [{ sku: 'A1', qty: 2 }],
      address: { street: 'Main', city: null },
      note: null,
    };
    const before = JSON.stringify(input);
    const result = schema['~standard'].validate(input);
    if (!('value' in result)) throw new Error(JSON.stringify(result));
    expect(result.value).toBeInstanceOf(OrderDto);
    expect(result.value.items[0]).toBeInstanceOf(LineItem);
    expect(result.value.address).toBeInstanceOf(Address);
    expect(result.value.note).toBeUndefined();
    expect(JSON.stringify(input)).toBe(before);
  });

  it('reports each problem with its path as segments', () => {
    const issues = issuesOf(
      schema['~standard'].validate({
        customer: 'Ada',
        items: [
          { sku: 'A1', qty: 1 },
          { sku: 'B2', qty: 0 },
        ],
        extra: 1,
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        { message: 'qty must not be less than 1', path: ['items', 1, 'qty'] },
        { message: 'property extra should not exist', path: ['extra'] },
      ]),
    );
    expect(issuesOf(schema['~standard'].validate({ items: [] }))).toContainEqual({
      message: 'customer is required',
      path: ['customer'],
    });
  });

  it('gives the verdict and the messages the tool call parser gives', () => {
    const [orderTool] = toolsFrom(new Tools()).filter((tool) => tool.schema.function.name === 'order');
    const inputs: unknown[] = [
      { customer: 'Ada', items: [{ sku: 'A1', qty: 2 }] },
      { customer: 7, items: [{ sku: 'A1', qty: 1.5 }, {}], address: { street: 3 } },
      { customer: 'Ada', items: 'many', __proto__x: 1 },
      { customer: 'Ada', items: [[{ sku: 'A', qty: 1 }]] },
    ];
    for (const input of inputs) {
      const parsed = orderTool.parseParams!(JSON.stringify(input));
      const result = schema['~standard'].validate(input);
      if (parsed.success) {
        expect('value' in result && result.value).toEqual(parsed.data);
        continue;
      }
      const lines = issuesOf(result).map(({ message, path }) => (path ? `${formatPath(path)}: ${message}` : message));
      expect(parsed.errorMessage.split('\n').slice(1)).toEqual(lines);
    }
  });

  it('refuses what is not an object', () => {
    for (const value of [null, 'text', 3, [{}], undefined]) {
      expect(issuesOf(schema['~standard'].validate(value))[0].message).toMatch(/^the value must be an object/);
    }
  });

  it('carries the JSON Schema, and hands out copies in either draft', () => {
    expect(schema.jsonSchema).toMatchObject({ type: 'object', required: ['customer', 'items'] });
    const copy = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    (copy as { type?: string }).type = 'changed';
    expect(schema.jsonSchema.type).toBe('object');
    expect(() => schema['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(/openapi-3.0/);
  });

  it('turns $defs into definitions for draft-07, and ajv accepts what validate accepts', () => {
    const forest = standardSchemaOf(Forest);
    expect(Object.keys(forest.jsonSchema.$defs ?? {})).toEqual(['TreeNode']);
    const draft07 = forest['~standard'].jsonSchema.input({ target: 'draft-07' });
    expect(JSON.stringify(draft07)).not.toContain('$defs');
    expect(draft07).toHaveProperty(['definitions', 'TreeNode']);
    const ajv = new Ajv({ strict: false });
    const check = ajv.compile(draft07);
    const good = { trees: [{ label: 'root', children: [{ label: 'leaf', children: [] }] }] };
    const bad = { trees: [{ label: 'root', children: [{ children: [] }] }] };
    expect(check(good)).toBe(true);
    expect('value' in forest['~standard'].validate(good)).toBe(true);
    expect(check(bad)).toBe(false);
    expect(issuesOf(forest['~standard'].validate(bad))).toContainEqual({
      message: 'label is required',
      path: ['trees', 0, 'children', 0, 'label'],
    });
  });

  it('is built once per class', () => {
    expect(standardSchemaOf(OrderDto)).toBe(schema);
  });
});

describe("standardSchemaOf(ToolsClass, 'method')", () => {
  it("is the tool's parameters: the schema toolsFrom sends and the same checks", () => {
    const schema = standardSchemaOf(Tools, 'forecast');
    const [forecast] = toolsFrom(new Tools());
    expect(schema.jsonSchema).toEqual(forecast.schema.function.parameters);
    const result = schema['~standard'].validate({ city: 'Oslo', days: 3 });
    expect('value' in result && { ...result.value }).toEqual({ city: 'Oslo', days: 3 });
    expect(issuesOf(schema['~standard'].validate({ city: 'Oslo', days: 9 }))).toEqual([
      { message: 'days must not be greater than 7', path: ['days'] },
    ]);
  });

  it('throws a named error for a method that is not a tool, and for a field that cannot be reflected', () => {
    expect(() => standardSchemaOf(Tools, 'helper')).toThrow(ToolDefinitionError);
    class Broken {
      @Param() value!: string | number;
    }
    expect(() => standardSchemaOf(Broken)).toThrow(ToolDefinitionError);
  });
});

function formatPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path
    .map((part) => (typeof part === 'object' ? part.key : part))
    .reduce<string>(
      (text, key) =>
        typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`,
      '',
    );
}
