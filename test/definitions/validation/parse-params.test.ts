import 'reflect-metadata';
import { IsInt, Matches, Max, Min, MinLength } from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import { Tool } from '../../../src/decorators/tool.decorator';
import { toolsFrom } from '../../../src/definitions/tools-from';
import type { ToolDefinition } from '../../../src/toolCall/type';
import { Address, LineItem, OrderDto } from '../../fixtures/order-dtos';

class Tools {
  @Tool()
  forecast(
    @Param('city') city: string,
    @Param('tags', { type: () => [String] }) tags: string[],
    @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number,
  ) {
    return [city, tags, days];
  }

  @Tool({ strict: true })
  order(@Param() order: OrderDto) {
    return order;
  }

  @Tool()
  paint(@Param('color', { enum: ['red', 'blue'] }) color: string, @Param('coats', { default: 2 }) coats: number) {
    return `${color} x${coats}`;
  }

  @Tool()
  coded(@Param('code', {}, MinLength(3), Matches(/^[a-z]+$/)) code: string) {
    return code;
  }
}

const [forecast, order, paint, coded] = toolsFrom(new Tools());

function errorOf(tool: ToolDefinition, raw: string): string {
  const result = tool.parseParams!(raw);
  if (result.success) throw new Error(`expected a failure for ${raw}`);
  return result.errorMessage;
}

function dataOf(tool: ToolDefinition, raw: string): Record<string, unknown> {
  const result = tool.parseParams!(raw);
  if (!result.success) throw new Error(result.errorMessage);
  return result.data;
}

describe('parseParams: messages the model reads', () => {
  it('wrong types: one line per field, naming only the type it must have', () => {
    expect(errorOf(forecast, '{"city": 3, "tags": ["a", 1], "days": "5"}')).toBe(
      [
        'Invalid arguments for tool "forecast":',
        'city: city must be a string',
        'tags: each value in tags must be a string',
        'days: days must be an integer number',
      ].join('\n'),
    );
  });

  it('a missing enum field is "required" like any other; a field with a default is filled in', () => {
    expect(errorOf(paint, '{}')).toBe('Invalid arguments for tool "paint":\ncolor: color is required');
    expect(dataOf(paint, '{"color": "red"}')).toEqual({ color: 'red', coats: 2 });
    expect(dataOf(paint, '{"color": "red", "coats": null}')).toEqual({ color: 'red', coats: 2 });
    const schema = paint.schema.type === 'function' ? paint.schema.function.parameters : undefined;
    expect(schema).toMatchObject({ required: ['color'], properties: { coats: { type: 'number', default: 2 } } });
  });

  it('a value of the right type that misses several bounds: one line for the field', () => {
    expect(errorOf(coded, '{"code": "AB"}')).toBe(
      'Invalid arguments for tool "coded":\ncode: code must match /^[a-z]+$/ regular expression; code must be longer than or equal to 3 characters',
    );
  });

  it('missing required fields: "is required", once per field', () => {
    expect(errorOf(forecast, '{}')).toBe(
      'Invalid arguments for tool "forecast":\ncity: city is required\ntags: tags is required',
    );
  });

  it('a null for a required field is a wrong type, not a missing field', () => {
    expect(errorOf(forecast, '{"city": null, "tags": []}')).toBe(
      'Invalid arguments for tool "forecast":\ncity: city must be a string',
    );
  });

  it('unknown fields are reported, not dropped', () => {
    expect(errorOf(forecast, '{"city": "Oslo", "tags": [], "country": "NO"}')).toBe(
      'Invalid arguments for tool "forecast":\ncountry: property country should not exist',
    );
  });

  it('nested errors carry the full path, array items by index', () => {
    const raw = JSON.stringify({
      customer: 'ada',
      items: [{ sku: 'A1', qty: 1 }, { sku: 7, qty: 0, color: 'red' }, 'B2'],
      address: { city: 'Oslo' },
    });
    expect(errorOf(order, raw)).toBe(
      [
        'Invalid arguments for tool "order":',
        'items[1].color: property color should not exist',
        'items[1].sku: sku must be a string',
        'items[1].qty: qty must not be less than 1',
        'items[2]: each value in nested property items must be either object or array',
        'address.street: street is required',
      ].join('\n'),
    );
  });

  it('a nested object sent as a scalar or an array is refused', () => {
    expect(errorOf(order, '{"customer": "ada", "items": [], "address": "Main street 1"}')).toBe(
      ['Invalid arguments for tool "order":', 'address: address must be an object'].join('\n'),
    );
    expect(errorOf(order, '{"customer": "ada", "items": [], "address": []}')).toBe(
      'Invalid arguments for tool "order":\naddress: address must be an object',
    );
  });

  it('arguments that are not a JSON object', () => {
    expect(errorOf(forecast, '["Oslo"]')).toBe(
      'Invalid arguments for tool "forecast":\nthe arguments must be a JSON object, not an array',
    );
    expect(errorOf(forecast, '42')).toBe(
      'Invalid arguments for tool "forecast":\nthe arguments must be a JSON object, not a number',
    );
    expect(errorOf(forecast, 'city=Oslo')).toBe(
      'Invalid arguments for tool "forecast":\nnot valid JSON: invalid character \'c\' at line 1, column 1',
    );
  });

  it('size and depth limits answer with a clear message', () => {
    expect(errorOf(forecast, `{"city": ${'['.repeat(100)}${']'.repeat(100)}}`)).toBe(
      'Invalid arguments for tool "forecast":\nnesting deeper than 64 levels',
    );
  });
});

describe('parseParams: accepted arguments', () => {
  it('returns an instance of the arguments class, nested DTOs included', () => {
    const data = dataOf(
      order,
      '{"customer": "ada", "items": [{"sku": "A1", "qty": 2}], "address": {"street": "Main 1"}}',
    );
    expect(data).toBeInstanceOf(OrderDto);
    expect((data as unknown as OrderDto).items[0]).toBeInstanceOf(LineItem);
    expect((data as unknown as OrderDto).address).toBeInstanceOf(Address);
  });

  it('tolerates the JSON models actually write (JSON5, code fences)', () => {
    expect(dataOf(forecast, "```json\n{city: 'Oslo', tags: ['rain',],}\n```")).toEqual(
      expect.objectContaining({ city: 'Oslo', tags: ['rain'] }),
    );
  });

  it('drops nulls sent for optional fields, also inside nested DTOs, and keeps the field absent', () => {
    const data = dataOf(
      order,
      '{"customer": "ada", "items": [], "address": {"street": "Main 1", "city": null}, "note": null}',
    );
    expect(Object.keys(data)).toEqual(['customer', 'items', 'address']);
    expect(Object.keys((data as unknown as OrderDto).address!)).toEqual(['street']);
    expect(Object.keys(dataOf(order, '{"customer": "ada", "items": [], "address": null}'))).toEqual([
      'customer',
      'items',
    ]);
  });

  it('never lets prototype keys reach an object', () => {
    const data = dataOf(
      forecast,
      '{"city": "Oslo", "tags": [], "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
    );
    expect(Object.keys(data)).toEqual(['city', 'tags']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(data.polluted).toBeUndefined();
  });

  it('a tool without parameters accepts empty arguments and refuses any field', () => {
    class Clock {
      @Tool()
      now() {
        return 'noon';
      }
    }
    const [now] = toolsFrom(new Clock());
    expect(now.parseParams!('').success).toBe(true);
    expect(now.parseParams!('{}').success).toBe(true);
    expect(now.parseParams!('{"tz": "UTC"}')).toEqual({
      success: false,
      errorMessage: 'Invalid arguments for tool "now":\ntz: property tz should not exist',
    });
  });
});

describe('parseParams: the method gets instances of the user’s own classes', () => {
  const seen: unknown[] = [];
  class Captures {
    @Tool()
    order(@Param() order: OrderDto) {
      seen.push(order);
      return 'ok';
    }

    @Tool()
    ship(@Param('to') to: Address, @Param('items', { type: () => [LineItem] }) items: LineItem[]) {
      seen.push(to, ...items);
      return 'ok';
    }
  }
  const [orderTool, shipTool] = toolsFrom(new Captures());
  const run = async (tool: ToolDefinition, raw: string) => {
    seen.length = 0;
    const params = dataOf(tool, raw);
    const call = { id: 'c1', type: 'function' as const, function: { name: 'x', arguments: raw } };
    await tool.execute({ call, messages: [], params, signal: new AbortController().signal });
    return seen;
  };

  it('a whole-DTO parameter and the DTOs nested in it, fast path and class-transformer path alike', async () => {
    const [order] = (await run(orderTool, '{"customer": "ada", "items": []}')) as OrderDto[];
    expect(order.constructor).toBe(OrderDto);
    expect(Object.getPrototypeOf(order)).toBe(OrderDto.prototype);

    const [nested] = (await run(
      orderTool,
      '{"customer": "ada", "items": [{"sku": "a", "qty": 1}], "address": {"street": "x"}}',
    )) as OrderDto[];
    expect(nested.constructor).toBe(OrderDto);
    expect(nested.items[0].constructor).toBe(LineItem);
    expect(nested.address?.constructor).toBe(Address);
    expect(nested).toEqual({ customer: 'ada', items: [{ sku: 'a', qty: 1 }], address: { street: 'x' } });
  });

  it('DTOs given as inline parameters', async () => {
    const values = await run(shipTool, '{"to": {"street": "x"}, "items": [{"sku": "a", "qty": 2}]}');
    expect(values.map((value) => (value as object).constructor)).toEqual([Address, LineItem]);
  });

  it('a value that fails validation is still refused', () => {
    expect(errorOf(orderTool, '{"customer": "ada", "items": [{"sku": "a", "qty": 0}]}')).toContain('qty');
  });
});
