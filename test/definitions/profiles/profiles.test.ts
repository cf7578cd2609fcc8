import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsEmail,
  IsInt,
  IsOptional,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import { Tool } from '../../../src/decorators/tool.decorator';
import { schemaReport } from '../../../src/definitions/profiles/schema-report';
import { SCHEMA_PROFILES } from '../../../src/definitions/profiles/schema-profile';
import { toolsFrom } from '../../../src/definitions/tools-from';
import type { ToolDefinition } from '../../../src/toolCall/type';

class Address {
  @Param({ description: 'Street' }) @MaxLength(40) street!: string;
  @Param() @Matches(/^(?=\d)[0-9]{5}$/) zip!: string;
}

class Order {
  @Param({ description: 'Units', examples: [2] }) @IsInt() @Min(1) @Max(7) units!: number;
  @Param({ enum: [1, 2, 3] }) priority!: number;
  @Param({ type: () => [String] }) @ArrayMaxSize(3) @MaxLength(5, { each: true }) tags!: string[];
  @Param() @IsEmail() mail!: string;
  @Param({ optional: true }) @IsUrl() site?: string;
  @Param({ optional: true }) @ValidateNested() @Type(() => Address) address?: Address;
}

class TreeNode {
  @Param() label!: string;
  @Param({ optional: true, type: () => [TreeNode] }) @IsOptional() children?: TreeNode[];
}

class Shop {
  @Tool({ description: 'Place an order' })
  order(@Param() order: Order) {
    return order;
  }

  @Tool()
  plant(@Param() tree: TreeNode) {
    return tree.label;
  }

  @Tool({ strict: false })
  note(@Param('text') text: string) {
    return text;
  }
}

const parametersOf = (tool: ToolDefinition) => tool.schema.function.parameters as Record<string, any>;
const byName = (tools: ToolDefinition[], name: string) => tools.find((t) => t.schema.function.name === name)!;

describe('schema profiles', () => {
  it("'openai' is the default and sends the same frozen schema object, built once per class", () => {
    const plain = toolsFrom(new Shop());
    const openai = toolsFrom([new Shop()], { profile: 'openai' });
    expect(openai.map((t) => t.schema)).toEqual(plain.map((t) => t.schema));
    plain.forEach((tool, i) => expect(openai[i].schema).toBe(tool.schema));
    expect(Object.isFrozen(parametersOf(plain[0]).properties)).toBe(true);
    expect(parametersOf(plain[0]).properties.units).toEqual({
      description: 'Units',
      type: 'integer',
      minimum: 1,
      maximum: 7,
      examples: [2],
    });
  });

  it("{ strict: true } and { profile: 'openai-strict' } send the same schemas; a tool's own strict: false wins", () => {
    const strict = toolsFrom([new Shop()], { strict: true });
    const profiled = toolsFrom([new Shop()], { profile: 'openai-strict' });
    expect(byName(profiled, 'order').schema).toBe(byName(strict, 'order').schema);
    expect(byName(profiled, 'order').schema.function.strict).toBe(true);
    expect(byName(profiled, 'note').schema.function.strict).toBeUndefined();
    expect(byName(profiled, 'note').schema).toBe(byName(toolsFrom(new Shop()), 'note').schema);
  });

  it("'gemini' leaves out what Gemini refuses and states it in the description", () => {
    const tools = toolsFrom([new Shop()], { profile: 'gemini', strict: true });
    const order = parametersOf(byName(tools, 'order'));
    const text = JSON.stringify(tools.map((t) => t.schema));
    expect(text).not.toMatch(/additionalProperties|\$ref|\$defs|"examples"|"strict"/);
    expect(order.properties.units).toEqual({
      description: 'Units (for example: 2)',
      type: 'integer',
      minimum: 1,
      maximum: 7,
    });
    expect(order.properties.priority).toEqual({ description: 'one of: 1, 2, 3', type: 'integer' });
    expect(order.properties.mail).toEqual({ description: 'format: email', type: 'string' });
    expect(order.properties.address.properties.zip).toEqual({ type: 'string', pattern: '^(?=\\d)[0-9]{5}$' });
    const plant = parametersOf(byName(tools, 'plant'));
    expect(plant.properties.children.items).toEqual({
      description: 'an object with the same fields as the arguments object',
      type: 'object',
    });
  });

  it("'anthropic' leaves out bounds and unsupported regular expressions, keeps additionalProperties: false", () => {
    const order = parametersOf(byName(toolsFrom([new Shop()], { profile: 'anthropic' }), 'order'));
    expect(order.additionalProperties).toBe(false);
    expect(order.properties.units).toEqual({
      description: 'Units (at least 1, at most 7)',
      type: 'integer',
      examples: [2],
    });
    expect(order.properties.tags).toEqual({
      description: 'at most 3 items',
      type: 'array',
      items: { description: 'at most 5 characters', type: 'string' },
    });
    expect(order.properties.address.properties.zip).toEqual({
      description: 'matches pattern ^(?=\\d)[0-9]{5}$',
      type: 'string',
    });
    expect(order.properties.site).toEqual({ type: 'string', format: 'uri' });
  });

  it("'lenient' keeps only types, properties, required, items and string enums", () => {
    const order = parametersOf(byName(toolsFrom([new Shop()], { profile: 'lenient' }), 'order'));
    expect(order).toEqual({
      type: 'object',
      properties: {
        units: { description: 'Units (at least 1, at most 7, for example: 2)', type: 'integer' },
        priority: { description: 'one of: 1, 2, 3', type: 'integer' },
        tags: {
          description: 'at most 3 items',
          type: 'array',
          items: { description: 'at most 5 characters', type: 'string' },
        },
        mail: { description: 'format: email', type: 'string' },
        site: { description: 'format: uri', type: 'string' },
        address: {
          type: 'object',
          properties: {
            street: { description: 'Street (at most 40 characters)', type: 'string' },
            zip: { description: 'matches pattern ^(?=\\d)[0-9]{5}$', type: 'string' },
          },
          required: ['street', 'zip'],
        },
      },
      required: ['units', 'priority', 'tags', 'mail'],
    });
  });

  it('validation is the same in every profile', () => {
    const args = JSON.stringify({ units: 9, priority: 2, tags: ['a'], mail: 'a@b.co', extra: 1 });
    const messages = SCHEMA_PROFILES.map((profile) =>
      byName(toolsFrom([new Shop()], { profile }), 'order').parseParams!(args),
    );
    expect(messages[0].success).toBe(false);
    for (const message of messages) expect(message).toEqual(messages[0]);
  });
});

describe('schemaReport', () => {
  it('lists, per tool and profile, every keyword left out, with its path, value and what the description says', () => {
    const report = schemaReport([Shop], { profile: 'gemini' });
    expect(report.filter((o) => o.tool === 'order')).toEqual([
      { tool: 'order', profile: 'gemini', path: 'units', keyword: 'examples', value: [2], statedAs: 'for example: 2' },
      {
        tool: 'order',
        profile: 'gemini',
        path: 'priority',
        keyword: 'enum',
        value: [1, 2, 3],
        statedAs: 'one of: 1, 2, 3',
      },
      { tool: 'order', profile: 'gemini', path: 'mail', keyword: 'format', value: 'email', statedAs: 'format: email' },
      { tool: 'order', profile: 'gemini', path: 'site', keyword: 'format', value: 'uri', statedAs: 'format: uri' },
      { tool: 'order', profile: 'gemini', path: 'address', keyword: 'additionalProperties', value: false },
      { tool: 'order', profile: 'gemini', path: '', keyword: 'additionalProperties', value: false },
    ]);
    expect(report.filter((o) => o.tool === 'note')).toEqual([
      { tool: 'note', profile: 'gemini', path: '', keyword: 'additionalProperties', value: false },
    ]);
  });

  it("reports nothing for 'openai' and takes instances as well as classes", () => {
    expect(schemaReport([new Shop()], { profile: 'openai' })).toEqual([]);
    expect(schemaReport([new Shop()])).toEqual(schemaReport([Shop]));
    const profiles = new Set(schemaReport([Shop]).map((o) => o.profile));
    expect([...profiles]).toEqual(['openai-strict', 'gemini', 'anthropic', 'lenient']);
  });

  it("honours strict: under 'openai', strict tools report what strict mode leaves out", () => {
    expect(schemaReport([Shop], { profile: 'openai', strict: true })).toEqual(
      schemaReport([Shop], { profile: 'openai-strict' }).map((o) => ({ ...o, profile: 'openai' })),
    );
  });
});
