const MAX_NAME_LENGTH = 64;

/**
 * The name an `output` schema goes out under, made to match `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI requires of
 * `json_schema.name`): `outputName` when given, else the class name, else the schema's `title`, else `'output'`.
 * Other characters become `_`, and the name is cut to 64 characters.
 *
 * @example outputName(undefined, 'Order DTO v2.1', undefined) // 'Order_DTO_v2_1'
 *
 * @internal
 */
export function outputName(given: string | undefined, className: string | undefined, title: unknown): string {
  const raw = [given, className, typeof title === 'string' ? title : undefined].find((name) => name?.trim());
  const name = (raw ?? 'output')
    .trim()
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .slice(0, MAX_NAME_LENGTH);
  return name || 'output';
}
