import { AudienceFileError } from './audience-file-error';
import { MAX_AUDIENCE_FILE_BYTES } from './audience-file-limits';
import type { AudienceByteSource, CsvHeader } from './audience-row';
import type { CsvRecord } from './csv-record-parser';
import { csvRecordBatches } from './csv-records';

export interface ResolvedCsvHeader {
  columns: readonly string[];
  phoneIndex: number;
}

/**
 * The header of a CSV audience file: its first record that is not a blank line. Read once from the
 * start of the file; a resumed read takes it as `options.header`.
 */
export async function readCsvHeader(source: AudienceByteSource, options: { maxBytes?: number } = {}): Promise<CsvHeader> {
  for await (const records of csvRecordBatches(source, 0, options.maxBytes ?? MAX_AUDIENCE_FILE_BYTES)) {
    const header = records.find((record) => !('fields' in record && record.blank));
    if (header !== undefined) return csvHeaderOf(header);
  }
  throw new AudienceFileError('no_header', 'the file is empty: it needs a header row with a phone column');
}

export function csvHeaderOf(record: CsvRecord): CsvHeader {
  if ('problem' in record) throw new AudienceFileError('malformed_header', `the header row is not valid CSV: ${record.problem}`);
  const columns = record.fields.map((name) => name.trim());
  resolveCsvHeader(columns);
  return { columns, endOffset: record.endOffset };
}

/** Checks the column names and finds the phone column (its name in any case). */
export function resolveCsvHeader(columns: readonly string[]): ResolvedCsvHeader {
  const seen = new Set<string>();
  columns.forEach((name, index) => {
    if (name === '') throw new AudienceFileError('empty_column_name', `column ${index + 1} of the header has no name`);
    if (seen.has(name)) throw new AudienceFileError('duplicate_column', `the header names the column ${JSON.stringify(name)} twice`);
    seen.add(name);
  });
  const phoneColumns = columns.flatMap((name, index) => (name.toLowerCase() === 'phone' ? [index] : []));
  if (phoneColumns.length === 0) throw new AudienceFileError('missing_phone_column', 'the header row has no phone column');
  if (phoneColumns.length > 1) {
    throw new AudienceFileError('duplicate_column', `the header has more than one phone column (${phoneColumns.map((i) => columns[i]).join(', ')})`);
  }
  return { columns, phoneIndex: phoneColumns[0] };
}
