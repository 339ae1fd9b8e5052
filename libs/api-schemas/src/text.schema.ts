import { z } from './zod';

/*
 * Every free text a request carries is stored and returned exactly as sent (U+0000, right-to-left
 * marks, emoji included), so it is refused here when it cannot be: a lone UTF-16 surrogate has no
 * UTF-8 form and BSON strings are UTF-8 (docs/data-layer.md). Text a request requires must say
 * something: whitespace alone is refused too, before it reaches a send that cannot deliver it.
 *
 * Each rule is written so that every common generator and validator reads it the same way:
 * - "not whitespace only" is the pattern of one character outside ECMAScript's `\s` (what
 *   `String.prototype.trim` removes), spelled out because engines differ on `\s` (Python's counts
 *   U+001C to U+001F and U+0085, not U+FEFF), unanchored (JSON Schema patterns match anywhere), so a
 *   1 MiB string is searched in linear time;
 * - "well-formed" (no unpaired surrogate) is the format `well-formed-unicode`, described in the
 *   document: JSON Schema engines match patterns by code point and most cannot express or draw
 *   strings with a lone surrogate (Hypothesis, and so Schemathesis, dropped every pattern naming
 *   the surrogate range), while a format is a named rule that a validator may check and a
 *   generator may ignore, as it ignores any format it does not know.
 */

/** ECMAScript's `\s` (what `String.prototype.trim` removes), spelled out for every regex engine. */
export const WHITESPACE = '\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/** A character that is not whitespace, anywhere in the text. */
const NOT_BLANK = new RegExp(`[^${WHITESPACE}]`, 'u');

/** The OpenAPI format of text the API stores: a string with a UTF-8 form (no unpaired UTF-16 surrogate). */
export const WELL_FORMED_UNICODE_FORMAT = 'well-formed-unicode';

/** Whether `text` has a UTF-8 form: read by code point, a surrogate pair is one astral character, a lone surrogate is refused. */
export function isWellFormedUnicode(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

const WELL_FORMED_MESSAGE = 'must be well-formed Unicode (no unpaired surrogate)';

/** Any well-formed string (of at most `max` characters when given). */
export function wellFormedText(max?: number) {
  const text = max === undefined ? z.string() : z.string().max(max);
  return text.refine(isWellFormedUnicode, { message: WELL_FORMED_MESSAGE }).openapi({ format: WELL_FORMED_UNICODE_FORMAT });
}

/** Required text: 1 (to `max` when given) characters, well-formed, not whitespace only. */
export function requiredText(max?: number) {
  // An empty text is one error (too short), not also a second one (blank).
  const text = z.string().min(1, { abort: true });
  return (max === undefined ? text : text.max(max))
    .regex(NOT_BLANK, { message: 'must not be whitespace only' })
    .refine(isWellFormedUnicode, { message: WELL_FORMED_MESSAGE })
    .openapi({ format: WELL_FORMED_UNICODE_FORMAT, pattern: NOT_BLANK.source });
}
