/**
 * Question: what does masking cost per KB of text, and does it stay linear on text built to make regular
 * expressions backtrack? `maskSecrets` on ordinary prose and on adversarial text, and `getErrText` on a 1 MB
 * adversarial message (the text is cut before it is masked, so its cost does not follow the input's size).
 * Budget: linear in the text (the same cost per KB at 10 KB and 100 KB); 1 MB through getErrText in milliseconds.
 */
import { getErrText } from '../src/text/error-text';
import { maskSecrets } from '../src/text/mask-secrets';
import { compare, cpuMicros, report } from './lib/harness';

const ROUNDS = 7;

const SHAPES: Record<string, (chars: number) => string> = {
  prose: (chars) => 'The city was not found; try another name. '.repeat(Math.ceil(chars / 42)).slice(0, chars),
  'adversarial a.a.a.': (chars) => 'a.'.repeat(chars / 2),
  'adversarial sk-sk-': (chars) => 'sk-'.repeat(Math.ceil(chars / 3)).slice(0, chars),
  'adversarial user:pass': (chars) => 'a:'.repeat(chars / 2),
};

export async function masking(): Promise<void> {
  console.log(`masking: median of ${ROUNDS}, CPU per KB of text`);
  for (const [label, make] of Object.entries(SHAPES)) {
    const small = make(10_240);
    const large = make(102_400);
    const perKb = (text: string, repeats: number) => async () =>
      (await cpuMicros(async () => {
        for (let i = 0; i < repeats; i++) maskSecrets(text);
      })) /
      repeats /
      (text.length / 1024);
    const r = await compare({ small: perKb(small, 20), large: perKb(large, 2) }, ROUNDS);
    report(`maskSecrets, ${label}, 10 KB`, r.small, 'µs/KB');
    report(`maskSecrets, ${label}, 100 KB`, r.large, 'µs/KB', r.small);
  }
  const megabyte = 'a.'.repeat(512 * 1024);
  const error = new Error(megabyte);
  const r = await compare({ errText: async () => cpuMicros(async () => getErrText(error)) }, ROUNDS);
  report('getErrText, 1 MB adversarial message', r.errText / 1000, 'ms');
}

if (require.main === module) void masking();
