import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import { Tool } from '../../../src/decorators/tool.decorator';
import { toolsFrom } from '../../../src/definitions/tools-from';

enum Cabin {
  Economy = 'economy',
  Business = 'business',
}

class Address {
  @Param({ description: 'Street and number' }) @Length(3, 80) street!: string;
  @Param() @Matches(/^[0-9]{5}$/) zip!: string;
  @Param({ optional: true }) city?: string;
}

class Passenger {
  @Param({ description: 'Full name' }) @MinLength(2) name!: string;
  @IsEmail() email!: string;
  @IsInt() @Min(0) @Max(130) age!: number;
  @Param({ optional: true }) @ValidateNested() @Type(() => Address) address?: Address;
}

class BookingDto {
  @Param({ description: 'IATA code', examples: ['OSL'] }) @Length(3, 3) from!: string;
  @IsUUID() requestId!: string;
  @IsDateString() departure!: string;
  @Param({ enum: Cabin }) cabin!: Cabin;
  @Param({ type: () => [Passenger] }) @ArrayMinSize(1) @ArrayMaxSize(9) passengers!: Passenger[];
  @Param({ type: () => [String], optional: true }) @IsIn(['meal', 'wifi'], { each: true }) extras?: string[];
  @IsOptional() @IsBoolean() flexible?: boolean;
  @IsPositive() budget!: number;
  @IsUrl() callback!: string;
}

class FlightTools {
  @Tool({ description: 'Book a flight' })
  book(@Param({ description: 'The booking' }) booking: BookingDto) {
    return booking.from;
  }

  @Tool({ name: 'book_strict', strict: true })
  bookStrict(@Param() booking: BookingDto) {
    return booking.from;
  }
}

const address = {
  type: 'object',
  properties: {
    street: { description: 'Street and number', type: 'string', minLength: 3, maxLength: 80 },
    zip: { type: 'string', pattern: '^[0-9]{5}$' },
    city: { type: 'string' },
  },
  required: ['street', 'zip'],
  additionalProperties: false,
};

describe('parameters schema of a DTO', () => {
  const [loose, strict] = toolsFrom(new FlightTools());

  it('covers types, constraints, formats, enums, arrays and nested DTOs, inlined', () => {
    expect(loose.schema).toEqual({
      type: 'function',
      function: {
        name: 'book',
        description: 'Book a flight',
        parameters: {
          description: 'The booking',
          type: 'object',
          properties: {
            from: { description: 'IATA code', type: 'string', minLength: 3, maxLength: 3, examples: ['OSL'] },
            requestId: { type: 'string', format: 'uuid' },
            departure: { type: 'string', format: 'date-time' },
            cabin: { type: 'string', enum: ['economy', 'business'] },
            passengers: {
              type: 'array',
              minItems: 1,
              maxItems: 9,
              items: {
                type: 'object',
                properties: {
                  name: { description: 'Full name', type: 'string', minLength: 2 },
                  email: { type: 'string', format: 'email' },
                  age: { type: 'integer', minimum: 0, maximum: 130 },
                  address,
                },
                required: ['name', 'email', 'age'],
                additionalProperties: false,
              },
            },
            extras: { type: 'array', items: { type: 'string', enum: ['meal', 'wifi'] } },
            flexible: { type: 'boolean' },
            budget: { type: 'number', exclusiveMinimum: 0 },
            callback: { type: 'string', format: 'uri' },
          },
          required: ['from', 'requestId', 'departure', 'cabin', 'passengers', 'budget', 'callback'],
          additionalProperties: false,
        },
      },
    });
  });

  it('in strict mode: everything required, optional fields nullable, unsupported keywords dropped', () => {
    expect(strict.schema).toEqual({
      type: 'function',
      function: {
        name: 'book_strict',
        strict: true,
        parameters: {
          type: 'object',
          properties: {
            from: {
              description: 'IATA code (at least 3 characters, at most 3 characters, for example: "OSL")',
              type: 'string',
            },
            requestId: { type: 'string', format: 'uuid' },
            departure: { type: 'string', format: 'date-time' },
            cabin: { type: 'string', enum: ['economy', 'business'] },
            passengers: {
              type: 'array',
              minItems: 1,
              maxItems: 9,
              items: {
                type: 'object',
                properties: {
                  name: { description: 'Full name (at least 2 characters)', type: 'string' },
                  email: { type: 'string', format: 'email' },
                  age: { type: 'integer', minimum: 0, maximum: 130 },
                  address: {
                    anyOf: [
                      {
                        type: 'object',
                        properties: {
                          street: {
                            description: 'Street and number (at least 3 characters, at most 80 characters)',
                            type: 'string',
                          },
                          zip: { type: 'string', pattern: '^[0-9]{5}$' },
                          city: { type: ['string', 'null'] },
                        },
                        required: ['street', 'zip', 'city'],
                        additionalProperties: false,
                      },
                      { type: 'null' },
                    ],
                  },
                },
                required: ['name', 'email', 'age', 'address'],
                additionalProperties: false,
              },
            },
            extras: { anyOf: [{ type: 'array', items: { type: 'string', enum: ['meal', 'wifi'] } }, { type: 'null' }] },
            flexible: { type: ['boolean', 'null'] },
            budget: { type: 'number', exclusiveMinimum: 0 },
            callback: { description: 'format: uri', type: 'string' },
          },
          required: [
            'from',
            'requestId',
            'departure',
            'cabin',
            'passengers',
            'extras',
            'flexible',
            'budget',
            'callback',
          ],
          additionalProperties: false,
        },
      },
    });
  });
});

describe('parameters schema of inline parameters', () => {
  enum Priority {
    Low = 1,
    High = 2,
  }
  class Tools {
    @Tool()
    search(
      @Param('query', { description: 'What to look for' }) query: string,
      @Param('priority', { enum: Priority }) priority: Priority,
      @Param('tags', { type: () => [String] }) tags: string[],
      @Param('limit', { optional: true }, IsInt(), Min(1), Max(50)) limit?: number,
      @Param('exact', { optional: true }) exact?: boolean,
      @Param('near', { optional: true }) near?: Address,
    ) {
      return [query, limit, exact, priority, tags, near];
    }

    @Tool()
    now() {
      return new Date().toISOString();
    }
  }

  it('become the properties of one object, in parameter order', () => {
    const [search, now] = toolsFrom(new Tools());
    expect(search.schema.function.parameters).toEqual({
      type: 'object',
      properties: {
        query: { description: 'What to look for', type: 'string' },
        priority: { type: 'integer', enum: [1, 2] },
        tags: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
        exact: { type: 'boolean' },
        near: address,
      },
      required: ['query', 'priority', 'tags'],
      additionalProperties: false,
    });
    expect(now.schema.function.parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});

describe('recursive DTOs', () => {
  class Category {
    @Param() name!: string;
    @Param({ type: () => [Category], optional: true }) children?: Category[];
  }
  class Catalog {
    @Param() title!: string;
    @Param({ type: () => Category }) root!: Category;
  }
  class Tools {
    @Tool()
    saveTree(@Param() tree: Category) {
      return tree.name;
    }

    @Tool({ strict: true })
    saveCatalog(@Param() catalog: Catalog) {
      return catalog.title;
    }
  }

  it('refer to the root as # and to other self-referencing classes through $defs, every $ref resolvable', () => {
    const [tree, catalog] = toolsFrom(new Tools());
    expect(tree.schema.function.parameters).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
      additionalProperties: false,
    });
    const parameters = catalog.schema.function.parameters as Record<string, unknown>;
    expect(parameters).toEqual({
      type: 'object',
      properties: { title: { type: 'string' }, root: { $ref: '#/$defs/Category' } },
      required: ['title', 'root'],
      additionalProperties: false,
      $defs: {
        Category: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/Category' } }, { type: 'null' }] },
          },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      },
    });
    expect(unresolvedRefs(parameters)).toEqual([]);
  });
});

function unresolvedRefs(root: Record<string, unknown>): string[] {
  const missing: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref !== '#') {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], root);
      if (target === undefined) missing.push(ref);
    }
    Object.values(node).forEach(visit);
  };
  visit(root);
  return missing;
}
