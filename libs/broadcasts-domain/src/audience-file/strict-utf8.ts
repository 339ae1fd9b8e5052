import { isUtf8 } from 'node:buffer';

/** The text of UTF-8 bytes, or null when they are not valid UTF-8 (a row is then invalid, not garbled). */
export function decodeUtf8(pieces: readonly Buffer[]): string | null {
  const bytes = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
  return isUtf8(bytes) ? bytes.toString('utf8') : null;
}
