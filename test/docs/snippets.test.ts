import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { checkExcerpt, OMISSION, type ExcerptReport } from './excerpt';

const root = join(__dirname, '../..');

/** README.md and every Markdown file under docs/, as repository-relative paths. */
function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [],
    );
  return ['README.md', ...(existsSync(join(root, 'docs')) ? walk('docs') : [])];
}

type Block = { lang: string; file?: string; code: string; line: number };

/** Fenced code blocks: ```lang [file] … ``` */
function codeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\S*)(?:[ \t]+(\S+))?[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)].map((match) => ({
    lang: match[1],
    file: match[2],
    code: match[3],
    line: markdown.slice(0, match.index).split('\n').length,
  }));
}

/** Markdown without its code blocks and inline code, where links and paths are prose. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```[ \t]*$/gm, '');
}

const TS = new Set(['ts', 'typescript', 'tsx', 'mts', 'cts']);

/** Docs import the package; samples import the source tree. */
function asInSample(line: string, sampleFile: string): string {
  const src = relative(dirname(join(root, sampleFile)), join(root, 'src')) || '.';
  return line.replace(
    /from '(agentcall)(\/[\w-]+)?'/,
    (_m, _name, sub: string | undefined) => `from '${src}${sub ?? ''}'`,
  );
}

/** How the block at hand matches its sample file. */
function excerptOf(code: string, sampleFile: string): ExcerptReport {
  const sample = readFileSync(join(root, sampleFile), 'utf8').split('\n');
  return checkExcerpt(
    code.split('\n').map((line) => asInSample(line, sampleFile)),
    sample,
  );
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(readFileSync(join(root, file), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const files = docFiles();
const sources = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

describe.each(files)('%s', (file) => {
  const markdown = sources.get(file)!;
  const blocks = codeBlocks(markdown).filter((block) => TS.has(block.lang));

  it('names the sample file of every TypeScript block (```ts samples/…)', () => {
    const untagged = blocks.filter((block) => !block.file).map((block) => `line ${block.line}`);
    expect(untagged).toEqual([]);
    const notSamples = blocks
      .filter((block) => block.file && !(block.file.startsWith('samples/') && existsSync(join(root, block.file))))
      .map((block) => `line ${block.line}: ${block.file}`);
    expect(notSamples).toEqual([]);
  });

  const tagged = blocks.filter((block) => block.file?.startsWith('samples/') && existsSync(join(root, block.file)));
  if (tagged.length > 0) {
    it.each(tagged.map((block) => [block.line, block.file!, block.code] as const))(
      'block at line %i: every line is in %s, in order',
      (_line, sample, code) => {
        expect(excerptOf(code, sample).missing).toEqual([]);
      },
    );
    it.each(tagged.map((block) => [block.line, block.file!, block.code] as const))(
      `block at line %i: each place it leaves code of %s out is marked \`${OMISSION}\``,
      (_line, sample, code) => {
        expect(excerptOf(code, sample).unmarked).toEqual([]);
      },
    );
  }

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const [, target] of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#');
      const linked = path ? relative(root, resolve(dirname(join(root, file)), decodeURI(path))) : file;
      if (!existsSync(join(root, linked))) broken.push(target);
      else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const paths = [...prose(markdown).matchAll(/`((?:src|test|samples|bench|docs|\.ci)\/[\w./-]+)`/g)].map(
      ([, p]) => p,
    );
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});

describe('the documentation map', () => {
  it('README links to every page under docs/', () => {
    const readme = sources.get('README.md')!;
    const pages = files.filter((file) => file.startsWith('docs/'));
    expect(pages.filter((page) => !readme.includes(`](${page})`) && !readme.includes(`](./${page})`))).toEqual([]);
  });
});
