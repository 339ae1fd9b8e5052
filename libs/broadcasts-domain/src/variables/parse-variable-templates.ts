import { parsePlaceholder } from './parse-placeholder';
import type { ParsedVariables, TemplateSegment } from './variable-template';
import { VariableTemplateError } from './variable-template-error';

const OPEN = '{{';
const CLOSE = '}}';

/**
 * A broadcast's variables with their placeholders read once, at create time: the first bad
 * placeholder throws VariableTemplateError naming it. Single braces are text; `}}` outside a
 * placeholder is refused, since it is nearly always a placeholder missing its `{{`.
 */
export function parseVariableTemplates(variables: readonly { index: number; value: string }[]): ParsedVariables {
  return variables.map(({ index, value }, position) => ({ index, segments: templateSegments(value, position) }));
}

function templateSegments(value: string, position: number): TemplateSegment[] {
  const segments: TemplateSegment[] = [];
  let cursor = 0;
  while (cursor < value.length) {
    const open = value.indexOf(OPEN, cursor);
    const textEnd = open === -1 ? value.length : open;
    const strayClose = value.indexOf(CLOSE, cursor);
    if (strayClose !== -1 && strayClose < textEnd) throw new VariableTemplateError(position, excerpt(value, strayClose), '"}}" without "{{"');
    if (textEnd > cursor) segments.push({ kind: 'text', text: value.slice(cursor, textEnd) });
    if (open === -1) break;
    const close = value.indexOf(CLOSE, open + OPEN.length);
    const reopen = value.indexOf(OPEN, open + OPEN.length);
    if (close === -1 || (reopen !== -1 && reopen < close)) {
      throw new VariableTemplateError(position, excerpt(value, open), '"{{" is not closed by "}}"');
    }
    const written = value.slice(open, close + CLOSE.length);
    const parsed = parsePlaceholder(written, value.slice(open + OPEN.length, close));
    if (!parsed.ok) throw new VariableTemplateError(position, written, parsed.problem);
    segments.push(parsed.placeholder);
    cursor = close + CLOSE.length;
  }
  return segments;
}

/** A short piece of the value from `start`, to name a placeholder that has no end. */
function excerpt(value: string, start: number): string {
  const piece = value.slice(start, start + 40);
  return start + 40 < value.length ? `${piece}...` : piece;
}
