import { Tool } from '../../src/decorators/tool.decorator';
import { getMetadataStorage } from '../../src/metadata/metadata-storage';

describe('@Tool', () => {
  it('records one tool per method, with the name defaulting to the method name', () => {
    class WeatherTools {
      @Tool({ description: 'Current weather', strict: true, timeoutMs: 500 })
      getWeather(): string {
        return '';
      }

      @Tool({ name: 'book_flight' })
      book(): string {
        return '';
      }
    }
    expect(getMetadataStorage().getTools(WeatherTools)).toEqual([
      {
        target: WeatherTools,
        methodName: 'getWeather',
        name: 'getWeather',
        description: 'Current weather',
        strict: true,
        timeoutMs: 500,
      },
      {
        target: WeatherTools,
        methodName: 'book',
        name: 'book_flight',
        description: undefined,
        strict: undefined,
        timeoutMs: undefined,
      },
    ]);
  });

  it('records under the declaring class only', () => {
    class Base {
      @Tool()
      ping(): string {
        return 'pong';
      }
    }
    class Derived extends Base {}
    expect(getMetadataStorage().getTools(Base)).toHaveLength(1);
    expect(getMetadataStorage().getTools(Derived)).toEqual([]);
  });

  it('records needsApproval as given, a flag or a predicate', () => {
    const onlyBig = ({ params }: { params: Record<string, unknown> }) => Number(params.amount) > 100;
    class Payments {
      @Tool({ needsApproval: true })
      pay(): string {
        return '';
      }

      @Tool({ needsApproval: onlyBig })
      refund(): string {
        return '';
      }
    }
    expect(
      getMetadataStorage()
        .getTools(Payments)
        .map((t) => t.needsApproval),
    ).toEqual([true, onlyBig]);
  });
});
