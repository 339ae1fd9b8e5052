/**
 * A stored value as the text a message shows: numbers and booleans printed, a date as YYYY-MM-DD,
 * a list's items joined by ", ". Null for nothing to show (absent, null, an empty list, an object).
 */
export function attributeText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (Array.isArray(value)) {
    const items = value.map(attributeText).filter((item): item is string => item !== null && item.trim() !== '');
    return items.length > 0 ? items.map((item) => item.trim()).join(', ') : null;
  }
  return null;
}
