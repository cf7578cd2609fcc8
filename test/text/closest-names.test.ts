import { closestNames } from '../../src/text/closest-names';

describe('closestNames', () => {
  const tools = ['translate_text', 'detect_language', 'get_weather', 'get_forecast', 'book_flight', 'echo'];

  it('finds names the unknown one starts, ends or is part of', () => {
    expect(closestNames('translate', tools)).toEqual(['translate_text']);
    expect(closestNames('forecast', tools)).toEqual(['get_forecast']);
  });

  it('finds names a few edits away, the closest first, ignoring case', () => {
    expect(closestNames('get_wether', tools)).toEqual(['get_weather']);
    expect(closestNames('Echo', tools)).toEqual(['echo']);
    expect(closestNames('get_weathr', [...tools, 'get_weathers', 'set_weather'])).toEqual([
      'get_weather',
      'get_weathers',
      'set_weather',
    ]);
  });

  it('lists at most `max` names, and none when nothing is close', () => {
    const many = Array.from({ length: 10 }, (_, i) => `search_${i}`);
    expect(closestNames('search', many)).toHaveLength(3);
    expect(closestNames('search', many, 2)).toEqual(['search_0', 'search_1']);
    expect(closestNames('rm_rf', tools)).toEqual([]);
    expect(closestNames('', tools)).toEqual([]);
  });

  it('never names anything outside the tool set, and lists each name once', () => {
    expect(closestNames('echo', ['echo', 'echo', 'ech'])).toEqual(['echo', 'ech']);
  });
});
