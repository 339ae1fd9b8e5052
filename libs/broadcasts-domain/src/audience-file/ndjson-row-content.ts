import { MAX_FIELD_BYTES } from './audience-file-limits';
import { setColumn, type RowContent } from './row-content';

/**
 * An NDJSON line (not blank) as a row: one JSON object with a `phone` key (any case) holding a string
 * or a number. Other values become text: strings as written, numbers and booleans printed; a null
 * is an absent column; an object or an array makes the row invalid.
 */
export function ndjsonRowContent(text: string, maxValueBytes = MAX_FIELD_BYTES): RowContent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { reason: 'the row is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { reason: 'the row is not a JSON object' };
  let phone: string | null = null;
  const columns: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === null) continue;
    if (typeof value === 'object') return { reason: `${JSON.stringify(key)} holds an object or a list` };
    if (typeof value === 'string' && Buffer.byteLength(value) > maxValueBytes) return { reason: `${JSON.stringify(key)} is longer than ${maxValueBytes} bytes` };
    if (key.toLowerCase() !== 'phone') {
      setColumn(columns, key, String(value));
      continue;
    }
    if (phone !== null) return { reason: 'the row has more than one phone key' };
    if (typeof value !== 'string' && typeof value !== 'number') return { reason: 'the phone must be a string or a number' };
    phone = String(value).trim();
    if (phone === '') return { reason: 'the phone is empty' };
  }
  if (phone === null) return { reason: 'the row has no phone' };
  return { phone, columns };
}
