/**
 * The lookup key of a name or an email: case- and accent-insensitive without collations
 * (docs/data-layer.md), so an equality or a prefix on the stored key is served by an index.
 * Lower-casing comes before the decomposition so that marks a capital only gains when lower-cased
 * ('İ' -> 'i' + U+0307) are stripped too.
 */
export function foldText(text: string): string {
  return stripMarks(text).trim();
}

/**
 * A `starts_with` prefix folded as the stored key, keeping its trailing spaces: `'ana '` asks for
 * `ana maria`, not `anabel`.
 */
export function foldPrefix(prefix: string): string {
  return stripMarks(prefix).trimStart();
}

/** `+52 1 (55) 1234-5678` -> `5215512345678`, as every phone lookup key of the repo. */
export function phoneDigits(text: string): string {
  return text.replace(/\D+/g, '');
}

function stripMarks(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
}
