import { AudienceFileError } from './audience-file-error';
import type { AudienceByteSource } from './audience-row';

export interface PositionedChunk {
  bytes: Buffer;
  /** The byte offset of `bytes[0]` in the whole file. */
  offset: number;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The source's bytes with their offsets in the whole file, starting at `startOffset`. A UTF-8 BOM
 * at offset 0 is dropped but still counted, so offsets stay those of the file on disk.
 */
export async function* positionedChunks(source: AudienceByteSource, startOffset: number, maxBytes: number): AsyncGenerator<PositionedChunk> {
  let offset = startOffset;
  let received = 0;
  // Held back until it is long enough to tell whether it starts with a BOM (chunks may be 1 byte).
  let head: Buffer | null = startOffset === 0 ? Buffer.alloc(0) : null;
  for await (const raw of source) {
    received += raw.length;
    if (startOffset + received > maxBytes) throw new AudienceFileError('too_large', `the file is over ${maxBytes} bytes`);
    let bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (head !== null) {
      head = Buffer.concat([head, bytes]);
      if (head.length < BOM.length) continue;
      bytes = head;
      head = null;
      if (bytes.subarray(0, BOM.length).equals(BOM)) {
        bytes = bytes.subarray(BOM.length);
        offset += BOM.length;
      }
    }
    if (bytes.length === 0) continue;
    yield { bytes, offset };
    offset += bytes.length;
  }
  if (head !== null && head.length > 0) yield { bytes: head, offset };
}
