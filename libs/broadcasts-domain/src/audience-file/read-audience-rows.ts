import { MAX_AUDIENCE_FILE_BYTES, MAX_AUDIENCE_ROWS } from './audience-file-limits';
import { AudienceFileError } from './audience-file-error';
import type { AudienceByteSource, AudienceReadItem, ReadAudienceOptions } from './audience-row';
import { csvHeaderOf, resolveCsvHeader, type ResolvedCsvHeader } from './csv-header';
import { csvRecordBatches } from './csv-records';
import { csvRowContent } from './csv-row-content';
import { ndjsonLineBatches } from './ndjson-lines';
import { ndjsonRowContent } from './ndjson-row-content';
import type { RowCandidate } from './row-content';

/**
 * The rows of an audience file (CONTRACT 10.4), streamed: at most one chunk and one row are held.
 * Each row carries its number and the byte offset just after it; a reader reopened at that offset
 * with `startRow` = its number + 1 (and, for CSV, the header) yields exactly the rows after it.
 *
 * Blank lines (nothing but spaces) are not rows: they take no number and do not count towards
 * `maxRows`. A bad row is an `invalid` item; only a problem of the whole file (no header, no
 * phone column, over `maxBytes`) throws AudienceFileError. Rows past `maxRows` are not read: the
 * read ends with one `truncated` item instead, so the rows before them can still be used.
 */
export async function* readAudienceRows(source: AudienceByteSource, options: ReadAudienceOptions): AsyncGenerator<AudienceReadItem> {
  const maxRows = options.maxRows ?? MAX_AUDIENCE_ROWS;
  const batches = options.format === 'csv' ? csvCandidateBatches(source, options) : ndjsonCandidateBatches(source, options);
  let row = options.startRow ?? 1;
  let readUpTo = startOffsetOf(options);
  for await (const candidates of batches) {
    for (const candidate of candidates) {
      if (candidate.blank) continue;
      if (row > maxRows) {
        yield { kind: 'truncated', row, endOffset: readUpTo };
        return;
      }
      const { content, endOffset } = candidate;
      yield 'reason' in content
        ? { kind: 'invalid', row, endOffset, reason: content.reason }
        : { kind: 'valid', row, endOffset, phone: content.phone, columns: content.columns };
      readUpTo = endOffset;
      row += 1;
    }
  }
}

function startOffsetOf(options: ReadAudienceOptions): number {
  const startOffset = options.startOffset ?? (options.format === 'csv' ? options.header?.endOffset : undefined) ?? 0;
  if (!Number.isSafeInteger(startOffset) || startOffset < 0) throw new Error(`readAudienceRows: startOffset ${startOffset} is not a byte offset`);
  return startOffset;
}

async function* csvCandidateBatches(source: AudienceByteSource, options: ReadAudienceOptions & { format: 'csv' }): AsyncGenerator<RowCandidate[]> {
  const startOffset = startOffsetOf(options);
  let header: ResolvedCsvHeader | null = null;
  if (options.header !== undefined) {
    if (startOffset < options.header.endOffset) throw new Error('readAudienceRows: a CSV read with a header starts at or after the header');
    header = resolveCsvHeader(options.header.columns);
  } else if (startOffset !== 0) {
    throw new Error('readAudienceRows: resuming a CSV file needs its header (readCsvHeader)');
  }
  for await (const records of csvRecordBatches(source, startOffset, options.maxBytes ?? MAX_AUDIENCE_FILE_BYTES)) {
    const candidates: RowCandidate[] = [];
    for (const record of records) {
      const blank = 'fields' in record && record.blank;
      if (header === null) {
        if (!blank) header = resolveCsvHeader(csvHeaderOf(record).columns);
      } else if (blank) {
        candidates.push({ endOffset: record.endOffset, blank });
      } else {
        candidates.push({ endOffset: record.endOffset, blank, content: csvRowContent(record, header) });
      }
    }
    yield candidates;
  }
  if (header === null) throw new AudienceFileError('no_header', 'the file is empty: it needs a header row with a phone column');
}

async function* ndjsonCandidateBatches(source: AudienceByteSource, options: ReadAudienceOptions): AsyncGenerator<RowCandidate[]> {
  for await (const lines of ndjsonLineBatches(source, startOffsetOf(options), options.maxBytes ?? MAX_AUDIENCE_FILE_BYTES)) {
    yield lines.map((line): RowCandidate => {
      if ('problem' in line) return { endOffset: line.endOffset, blank: false, content: { reason: line.problem } };
      if (line.text.trim() === '') return { endOffset: line.endOffset, blank: true };
      return { endOffset: line.endOffset, blank: false, content: ndjsonRowContent(line.text) };
    });
  }
}
