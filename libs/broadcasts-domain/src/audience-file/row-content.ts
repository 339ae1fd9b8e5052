/** What one data line holds, before it is numbered: a phone and its other columns, or why it is invalid. */
export type RowContent = { phone: string; columns: Record<string, string> } | { reason: string };

/** A line of the file: blank (not a row) or a row's content, with the byte offset just after it. */
export type RowCandidate = { endOffset: number; blank: true } | { endOffset: number; blank: false; content: RowContent };

/**
 * Sets a column; one named `__proto__` becomes an own property rather than the object's prototype.
 * (Plain assignment: Object.fromEntries costs ten times as much per row.)
 */
export function setColumn(columns: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(columns, name, { value, enumerable: true, writable: true, configurable: true });
  else columns[name] = value;
}
