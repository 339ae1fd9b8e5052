import { z } from './zod';

/*
 * Every free text a request carries is stored and returned exactly as sent (U+0000, right-to-left
 * marks, emoji included), so it is refused here when it cannot be: a lone UTF-16 surrogate has no
 * UTF-8 form and BSON strings are UTF-8 (docs/data-layer.md). Text a request requires must say
 * something: whitespace alone is refused too, before it reaches a send that cannot deliver it.
 * Each rule is one pattern, so the OpenAPI document shows it.
 */

/** Every surrogate in its pair: a string that has a UTF-8 form. */
const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
/** The same, with at least one character that is not whitespace. */
const WELL_FORMED_NOT_BLANK = /^(?=[\s\S]*\S)(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/** Any well-formed string (of at most `max` characters when given). */
export function wellFormedText(max?: number) {
  const text = z.string().regex(WELL_FORMED, { message: 'must be well-formed Unicode (no unpaired surrogate)' });
  return max === undefined ? text : text.max(max);
}

/** Required text: 1 (to `max` when given) characters, well-formed, not whitespace only. */
export function requiredText(max?: number) {
  const text = z
    .string()
    // An empty text is one error (too short), not also a second one (blank).
    .min(1, { abort: true })
    .regex(WELL_FORMED_NOT_BLANK, { message: 'must be well-formed Unicode (no unpaired surrogate) and not whitespace only' });
  return max === undefined ? text : text.max(max);
}
