import { ToolDefinitionError } from '../../src/errors/tool-definition.error';

describe('ToolDefinitionError', () => {
  it('lists every problem with its class, method and parameter index', () => {
    const problems = [
      {
        className: 'WeatherTools',
        methodName: 'getWeather',
        parameterIndex: 1,
        message: 'has no @Param or @Ctx decorator',
      },
      { className: 'WeatherTools', methodName: 'bad name', message: 'tool name is invalid' },
      { className: 'Empty', message: 'has no @Tool methods' },
    ];
    const error = new ToolDefinitionError(problems);
    expect(error.message).toBe(
      [
        'Invalid tool definitions (3 problems):',
        '  - WeatherTools.getWeather, parameter index 1: has no @Param or @Ctx decorator',
        '  - WeatherTools.bad name: tool name is invalid',
        '  - Empty: has no @Tool methods',
      ].join('\n'),
    );
    expect(error.problems).toBe(problems);
  });

  it('says "1 problem" for one', () => {
    expect(new ToolDefinitionError([{ className: 'A', message: 'm' }]).message).toBe(
      'Invalid tool definitions (1 problem):\n  - A: m',
    );
  });
});
