import 'reflect-metadata';
import { Body, Controller, HttpCode, Post, ValidationPipe, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, Min } from 'class-validator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';

enum Priority {
  Low = 'low',
  High = 'high',
}

class LineDto {
  @Param({ description: 'Product code' }) sku!: string;
  @IsInt() @Min(1) qty!: number;
}

/** A DTO shared by an HTTP route and a tool: some fields carry only `@Param`, some class-validator checks. */
class OrderDto {
  @Param({ description: 'Who orders' }) customer!: string;
  @Param({ enum: Priority, optional: true }) priority?: Priority;
  @Param({ type: () => LineDto }) lines!: LineDto[];
  @IsInt() @Min(0) tip!: number;
}

@Controller('orders')
class OrdersController {
  @Post()
  @HttpCode(200)
  create(@Body() order: OrderDto) {
    return { ok: true, customer: order.customer };
  }
}

class OrderTools {
  @Tool({ description: 'Place an order' })
  place(@Param() order: OrderDto) {
    return order.customer;
  }
}

const BODIES: readonly unknown[] = [
  { customer: 'ada', lines: [{ sku: 'a1', qty: 2 }], tip: 1 },
  { customer: 42, lines: [{ sku: 'a1', qty: 2 }], tip: 1 },
  { customer: 'ada', priority: 'urgent', lines: [], tip: 0 },
  { customer: 'ada', lines: [{ sku: 7, qty: 0 }], tip: 1 },
  { customer: 'ada', lines: 'none', tip: 1 },
  { lines: [], tip: -1 },
  { customer: 'ada', lines: [], tip: 1, extra: true },
];

describe('toolsFrom leaves a DTO shared with a NestJS ValidationPipe as written (real HTTP)', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [OrdersController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
    await app.listen(0, '127.0.0.1');
    url = `${await app.getUrl()}/orders`;
  });

  afterAll(() => app.close());

  const verdicts = () =>
    Promise.all(
      BODIES.map(async (body) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return `${response.status} ${await response.text()}`;
      }),
    );

  it("gives every body the same verdict and message before and after the DTO's tools are built", async () => {
    const before = await verdicts();
    const [place] = toolsFrom(new OrderTools());
    // The tool itself validates everything its schema promises.
    expect(place.parseParams!(JSON.stringify(BODIES[1])).success).toBe(false);
    expect(place.parseParams!(JSON.stringify(BODIES[0])).success).toBe(true);
    expect(await verdicts()).toEqual(before);
    // The route validates as class-validator reads the DTO as written: `@Param` alone only allows a field.
    expect(before[1]).toMatch(/^200 /);
  });
});
