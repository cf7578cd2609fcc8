import { Exclude, Expose } from 'class-transformer';
import { mapToolReturn } from '../../../src/definitions/results/map-tool-return';
import { toolResult } from '../../../src/definitions/results/tool-result';

class Account {
  @Expose() id = 'acc_1';
  @Exclude() apiKey = 'sk-secret';
}

describe('mapToolReturn', () => {
  it.each([
    ['a string', 'plain text', 'plain text'],
    ['undefined', undefined, ''],
    ['null', null, ''],
    ['a number', 42, '42'],
    ['a boolean', false, 'false'],
    ['a bigint', 10n, '10'],
    ['an array', [1, 'a'], '[1,"a"]'],
    ['a plain object', { temp: 21 }, '{"temp":21}'],
    ['a class instance with @Exclude', new Account(), '{"id":"acc_1"}'],
    ['an array of class instances', [new Account()], '[{"id":"acc_1"}]'],
  ])('%s', (_label, value, response) => {
    expect(mapToolReturn(value)).toEqual({ response });
  });

  it('keeps only the defined fields of a toolResult, without its brand', () => {
    const mapped = mapToolReturn(toolResult('done', { stop: true, interactive: undefined }));
    expect(mapped).toEqual({ response: 'done', stop: true });
    expect(Object.getOwnPropertySymbols(mapped)).toEqual([]);
  });

  it('does not mistake a domain object with a response field for a result', () => {
    expect(mapToolReturn({ response: 'x', stop: true })).toEqual({ response: '{"response":"x","stop":true}' });
  });
});
