import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Whether a property carries the named class-validator check at one level (the value, or each array item). */
export function hasCheck(metas: readonly ValidationMetadata[], name: string, each: boolean): boolean {
  return metas.some((meta) => meta.name === name && Boolean(meta.each) === each);
}
