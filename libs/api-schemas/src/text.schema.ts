import { z } from './zod';

/*
 * Every free text a request carries is stored and returned exactly as sent (U+0000, right-to-left
 * marks, emoji included), so it is refused here when it cannot be: a lone UTF-16 surrogate has no
 * UTF-8 form and BSON strings are UTF-8 (docs/data-layer.md). Text a request requires must say
 * something: whitespace alone is refused too, before it reaches a send that cannot deliver it.
 *
 * Each rule is one pattern, so the OpenAPI document shows it, written so that every common regex
 * engine reads it the same way: JSON Schema patterns are matched by code point (ajv's `u` flag,
 * Python's `re`), which is how these compile here too; no lookahead (generators such as
 * Hypothesis drop patterns they cannot draw from); whitespace spelled out as ECMAScript's `\s`
 * (what `String.prototype.trim` removes), since engines differ on `\s`; and no two adjacent parts
 * that can match the same character, so a 1 MiB string is matched in linear time.
 */

const SURROGATES = '\\uD800-\\uDFFF';
/** ECMAScript's `\\s` (what `String.prototype.trim` removes), spelled out for every regex engine. */
export const WHITESPACE = '\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/** No lone surrogate: read by code point, a surrogate pair is one astral character. */
const WELL_FORMED = new RegExp(`^[^${SURROGATES}]*$`, 'u');
/** The same, with a character that is not whitespace: leading whitespace, that character, anything well-formed. */
const WELL_FORMED_NOT_BLANK = new RegExp(`^[${WHITESPACE}]*[^${WHITESPACE}${SURROGATES}][^${SURROGATES}]*$`, 'u');

/** zod-to-openapi writes a pattern with its flags appended (`.../u`): the document gets the bare source. */
function documentedPattern(text: z.ZodString, pattern: RegExp): z.ZodString {
  return text.openapi({ pattern: pattern.source });
}

/** Any well-formed string (of at most `max` characters when given). */
export function wellFormedText(max?: number) {
  const text = z.string().regex(WELL_FORMED, { message: 'must be well-formed Unicode (no unpaired surrogate)' });
  return documentedPattern(max === undefined ? text : text.max(max), WELL_FORMED);
}

/** Required text: 1 (to `max` when given) characters, well-formed, not whitespace only. */
export function requiredText(max?: number) {
  const text = z
    .string()
    // An empty text is one error (too short), not also a second one (blank).
    .min(1, { abort: true })
    .regex(WELL_FORMED_NOT_BLANK, { message: 'must be well-formed Unicode (no unpaired surrogate) and not whitespace only' });
  return documentedPattern(max === undefined ? text : text.max(max), WELL_FORMED_NOT_BLANK);
}
