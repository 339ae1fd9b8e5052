import { attributeText } from './attribute-text';
import type { ParsedVariables, PlaceholderPath } from './variable-template';

/** What a recipient's placeholders read: its contact and, for a file audience, its row's columns. */
export interface RecipientValues {
  contact: {
    first_name: string | null | undefined;
    last_name: string | null | undefined;
    attributes: Record<string, unknown> | null | undefined;
  };
  row?: Record<string, string>;
}

export type RenderedVariables = { ok: true; variables: { index: number; value: string }[] } | { ok: false; missing: string };

/**
 * One recipient's variables. A placeholder reads its value trimmed; an empty one (absent, blank,
 * an empty list) takes its fallback, and without one the recipient is skipped: `missing` names the
 * first such placeholder as written.
 */
export function renderVariables(parsed: ParsedVariables, values: RecipientValues): RenderedVariables {
  const variables: { index: number; value: string }[] = [];
  for (const { index, segments } of parsed) {
    let value = '';
    for (const segment of segments) {
      if (segment.kind === 'text') {
        value += segment.text;
        continue;
      }
      const text = valueOf(segment.path, values) ?? segment.fallback;
      if (text === null) return { ok: false, missing: segment.written };
      value += text;
    }
    variables.push({ index, value });
  }
  return { ok: true, variables };
}

function valueOf(path: PlaceholderPath, values: RecipientValues): string | null {
  let raw: unknown;
  if (path.root === 'row') raw = values.row !== undefined && Object.hasOwn(values.row, path.column) ? values.row[path.column] : undefined;
  else if (path.field === 'attributes') raw = values.contact.attributes && Object.hasOwn(values.contact.attributes, path.key) ? values.contact.attributes[path.key] : undefined;
  else raw = values.contact[path.field];
  const text = attributeText(raw)?.trim();
  return text ? text : null;
}
