import type { AudienceByteSource } from './audience-row';
import { CsvRecordParser, type CsvRecord } from './csv-record-parser';
import { positionedChunks } from './positioned-chunks';

/**
 * The CSV records of `source`, which starts at `startOffset` of the file, a chunk's worth at a time
 * (one await per chunk rather than per record).
 */
export async function* csvRecordBatches(source: AudienceByteSource, startOffset: number, maxBytes: number): AsyncGenerator<CsvRecord[]> {
  const parser = new CsvRecordParser();
  let end = startOffset;
  for await (const { bytes, offset } of positionedChunks(source, startOffset, maxBytes)) {
    yield parser.push(bytes, offset);
    end = offset + bytes.length;
  }
  yield parser.finish(end);
}
