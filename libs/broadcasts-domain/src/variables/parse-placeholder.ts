import { ATTRIBUTE_KEY_PATTERN } from '@cmsg/contact-filter';
import type { Placeholder, PlaceholderPath } from './variable-template';

/** Why a placeholder is refused, or the placeholder. */
export type PlaceholderParse = { ok: true; placeholder: Placeholder } | { ok: false; problem: string };

const CONTACT_NAME_FIELDS = new Set(['first_name', 'last_name']);
const ATTRIBUTES_PREFIX = 'attributes.';

/**
 * The inside of `{{...}}`: a path, then optionally `|` and a fallback. Spaces around either are
 * ignored; the fallback may hold spaces but not `|` or `}`.
 */
export function parsePlaceholder(written: string, inside: string): PlaceholderParse {
  const [rawPath, rawFallback, ...rest] = inside.split('|');
  if (rest.length > 0) return { ok: false, problem: 'a placeholder takes one fallback, and a fallback cannot hold "|"' };
  const fallback = rawFallback === undefined ? null : rawFallback.trim();
  if (fallback === '') return { ok: false, problem: 'the fallback after "|" is empty' };
  if (fallback !== null && fallback.includes('}')) return { ok: false, problem: 'a fallback cannot hold "}"' };
  const path = placeholderPath(rawPath.trim());
  if ('problem' in path) return { ok: false, problem: path.problem };
  return { ok: true, placeholder: { kind: 'placeholder', written, path, fallback } };
}

function placeholderPath(text: string): PlaceholderPath | { problem: string } {
  if (text === '') return { problem: 'the placeholder is empty' };
  const dot = text.indexOf('.');
  const root = dot === -1 ? text : text.slice(0, dot);
  const rest = dot === -1 ? '' : text.slice(dot + 1);
  if (root === 'row') {
    const column = rest.trim();
    return column === '' ? { problem: 'row. needs a column name' } : { root: 'row', column };
  }
  if (root !== 'contact') return { problem: `unknown placeholder ${JSON.stringify(root)} (use contact.first_name, contact.last_name, contact.attributes.<key> or row.<column>)` };
  if (rest === 'first_name' || rest === 'last_name') return { root: 'contact', field: rest };
  if (rest.startsWith(ATTRIBUTES_PREFIX)) {
    const key = rest.slice(ATTRIBUTES_PREFIX.length);
    if (!ATTRIBUTE_KEY_PATTERN.test(key)) return { problem: `${JSON.stringify(key)} is not an attribute key (${ATTRIBUTE_KEY_PATTERN.source})` };
    return { root: 'contact', field: 'attributes', key };
  }
  return { problem: `unknown contact field ${JSON.stringify(rest)} (use ${[...CONTACT_NAME_FIELDS].join(', ')} or attributes.<key>)` };
}
