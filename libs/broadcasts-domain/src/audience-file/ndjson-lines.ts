import { MAX_LINE_BYTES } from './audience-file-limits';
import type { AudienceByteSource } from './audience-row';
import { positionedChunks } from './positioned-chunks';
import { decodeUtf8 } from './strict-utf8';

/** One NDJSON line (without its LF) and the byte offset just after it. */
export type NdjsonLine = { endOffset: number; text: string } | { endOffset: number; problem: string };

const LF = 0x0a;

/**
 * The lines of `source`, which starts at `startOffset` of the file, a chunk's worth at a time. A
 * line over the limit is dropped unread up to its LF.
 */
export async function* ndjsonLineBatches(
  source: AudienceByteSource,
  startOffset: number,
  maxBytes: number,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<NdjsonLine[]> {
  let pieces: Buffer[] = [];
  let lineBytes = 0;
  let end = startOffset;
  const endLine = (endOffset: number): NdjsonLine => {
    const text = lineBytes > maxLineBytes ? null : decodeUtf8(pieces);
    const line: NdjsonLine =
      text !== null
        ? { endOffset, text }
        : { endOffset, problem: lineBytes > maxLineBytes ? `the row is longer than ${maxLineBytes} bytes` : 'the row is not valid UTF-8' };
    pieces = [];
    lineBytes = 0;
    return line;
  };
  for await (const { bytes, offset } of positionedChunks(source, startOffset, maxBytes)) {
    const lines: NdjsonLine[] = [];
    let start = 0;
    for (;;) {
      const lf = bytes.indexOf(LF, start);
      const stop = lf === -1 ? bytes.length : lf;
      lineBytes += stop - start;
      if (lineBytes > maxLineBytes) pieces = [];
      // The tail of a chunk is copied: its line goes on in the next chunk.
      else if (stop > start) pieces.push(lf === -1 ? Buffer.from(bytes.subarray(start, stop)) : bytes.subarray(start, stop));
      if (lf === -1) break;
      lines.push(endLine(offset + lf + 1));
      start = lf + 1;
    }
    yield lines;
    end = offset + bytes.length;
  }
  if (lineBytes > 0) yield [endLine(end)];
}
