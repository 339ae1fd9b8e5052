import type { CsvRecord } from './csv-record-parser';
import type { ResolvedCsvHeader } from './csv-header';
import { setColumn, type RowContent } from './row-content';

/** A data record against its header: the phone (trimmed) and the other columns as written. */
export function csvRowContent(record: CsvRecord, header: ResolvedCsvHeader): RowContent {
  if ('problem' in record) return { reason: record.problem };
  const { fields } = record;
  if (fields.length !== header.columns.length) return { reason: `the row has ${fields.length} fields where the header has ${header.columns.length}` };
  const phone = fields[header.phoneIndex].trim();
  if (phone === '') return { reason: 'the phone is empty' };
  const columns: Record<string, string> = {};
  for (let index = 0; index < fields.length; index++) if (index !== header.phoneIndex) setColumn(columns, header.columns[index], fields[index]);
  return { phone, columns };
}
