/**
 * Words of a made-up vocabulary, the same for the same seed: `chars` characters of them, as a server of many
 * unrelated tools describes them, so a search index over them is large.
 */
export function madeUpWords(seed: number, chars: number): string {
  let text = '';
  let state = seed;
  while (text.length < chars) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += `w${(state % 20_000).toString(36)}x `;
  }
  return text.slice(0, chars);
}
