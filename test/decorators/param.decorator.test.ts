import { getMetadataStorage as getValidationStorage, IsInt, Max, Min } from 'class-validator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { getMetadataStorage } from '../../src/metadata/metadata-storage';

describe('@Param', () => {
  it('on a method parameter with a name: records a named field with its options and decorators', () => {
    const isInt = IsInt();
    const min = Min(1);
    class WeatherTools {
      @Tool()
      forecast(
        @Param('city', { description: 'City name' }) city: string,
        @Param('days', { optional: true }, isInt, min) days?: number,
      ) {
        return `${city}${days}`;
      }
    }
    expect(getMetadataStorage().getParams(WeatherTools, 'forecast')).toEqual([
      {
        kind: 'param',
        target: WeatherTools,
        methodName: 'forecast',
        index: 0,
        name: 'city',
        options: { description: 'City name' },
        decorators: [],
      },
      {
        kind: 'param',
        target: WeatherTools,
        methodName: 'forecast',
        index: 1,
        name: 'days',
        options: { optional: true },
        decorators: [isInt, min],
      },
    ]);
  });

  it('on a method parameter without a name: records the whole-arguments parameter', () => {
    class Order {}
    class Shop {
      @Tool()
      place(@Param({ description: 'The order' }) order: Order) {
        return order;
      }
    }
    expect(getMetadataStorage().getParams(Shop, 'place')).toEqual([
      { kind: 'args', target: Shop, methodName: 'place', index: 0, options: { description: 'The order' } },
    ]);
  });

  it('defaults the options of a bare @Param() to {}', () => {
    class Order {}
    class Shop {
      @Tool()
      place(@Param() order: Order) {
        return order;
      }
    }
    expect(getMetadataStorage().getParams(Shop, 'place')[0]).toMatchObject({ kind: 'args', options: {} });
  });

  it('on a DTO property: records a property and marks it allowed for class-validator', () => {
    const type = () => [String] as const;
    class Passenger {
      @Param({ description: 'Full name', examples: ['Ada Lovelace'] }) name!: string;
      @Param({ type, optional: true }) tags?: string[];
    }
    expect(getMetadataStorage().getProperties(Passenger)).toEqual([
      { target: Passenger, propertyName: 'name', options: { description: 'Full name', examples: ['Ada Lovelace'] } },
      { target: Passenger, propertyName: 'tags', options: { type, optional: true } },
    ]);
    const metas = getValidationStorage().getTargetValidationMetadatas(Passenger, '', true, false);
    expect(metas.map((meta) => [meta.propertyName, meta.type])).toEqual([
      ['name', 'whitelistValidation'],
      ['tags', 'whitelistValidation'],
    ]);
  });

  it('ignores constructor parameters, which belong to dependency injection', () => {
    class Service {
      constructor(@Param('x') readonly x: string) {}
    }
    expect(getMetadataStorage().getParams(Service, 'constructor')).toEqual([]);
    expect(getMetadataStorage().getProperties(Service)).toEqual([]);
  });

  it('accepts class-validator decorators after the options in any number', () => {
    class Tools {
      @Tool()
      roll(@Param('sides', {}, IsInt(), Min(2), Max(100)) sides: number) {
        return sides;
      }
    }
    const [record] = getMetadataStorage().getParams(Tools, 'roll');
    expect(record.kind === 'param' && record.decorators).toHaveLength(3);
  });
});
