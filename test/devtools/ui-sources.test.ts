import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('the devtools page sources', () => {
  const dir = join(__dirname, '../../src/devtools/ui');
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));

  it('never write markup from a string: model text is only ever a text node', () => {
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect({
        name,
        found: /innerHTML|outerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write/.exec(text)?.[0],
      }).toEqual({
        name,
        found: undefined,
      });
    }
  });

  it('load nothing from outside the machine', () => {
    for (const name of [...files, 'style.css']) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect({ name, url: /(?:https?:)?\/\/[a-z][\w.-]+\.[a-z]{2,}/i.exec(text)?.[0] }).toEqual({
        name,
        url: undefined,
      });
    }
  });
});
