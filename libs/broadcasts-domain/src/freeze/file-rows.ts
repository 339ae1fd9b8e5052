import { phoneDigits } from '@cmsg/contact-filter';
import type { BroadcastAudienceEntity, BroadcastFreezeCheckpoint, BusinessScope } from '@cmsg/dal';
import { type AudienceRow, MAX_AUDIENCE_ROWS, type ReadAudienceOptions, readAudienceRows } from '../audience-file';
import type { AudiencePorts } from '../core/audience-ports';

export type FileAudience = Extract<BroadcastAudienceEntity, { kind: 'file' }>;

/** The module of POST /files/request-upload whose files a broadcast takes as its audience. */
export const AUDIENCE_FILE_MODULE = 'broadcast_audiences';

/** Phone keys a contact lookup takes at once (AudiencePorts.contactsByPhoneKeys). */
export const PHONE_LOOKUP_KEYS = 100;

/** The key a row's phone is also readable under, whatever its column is called: `{{row.phone}}`. */
export const ROW_PHONE_KEY = 'phone';

/** A file audience's format by the file's (normalised) type; null for a type that is not one. */
export function audienceFileFormatOf(mimeType: string): FileAudience['format'] | null {
  if (mimeType === 'text/csv') return 'csv';
  if (mimeType === 'application/x-ndjson') return 'ndjson';
  return null;
}

/** The phone's digits when POST /contacts would take it (8 to 15 digits, CONTRACT 10.1), else null. */
export function sendablePhoneKey(phone: string): string | null {
  const digits = phoneDigits(phone);
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/**
 * What a row's `{{row.<column>}}` placeholders read: its other columns, and its phone (as written,
 * trimmed) under `phone` and under the CSV header's own name for it (`Phone`, `PHONE`).
 */
export function rowValues(row: Extract<AudienceRow, { kind: 'valid' }>, source: FileAudience): Record<string, string> {
  const values: Record<string, string> = { ...row.columns };
  values[ROW_PHONE_KEY] = row.phone;
  const named = source.format === 'csv' ? source.header.columns.find((column) => column.toLowerCase() === ROW_PHONE_KEY) : undefined;
  if (named !== undefined) values[named] = row.phone;
  return values;
}

/** Where reading the file goes on after the checkpoint: the byte offset (past a CSV header) and the next row's number. */
export function resumePoint(source: FileAudience, freeze: Pick<BroadcastFreezeCheckpoint, 'offset' | 'rows'>): { startOffset: number; startRow: number } {
  const startOffset = source.format === 'csv' ? Math.max(freeze.offset, source.header.end_offset) : freeze.offset;
  return { startOffset, startRow: freeze.rows + 1 };
}

/**
 * The rows of the file from a resume point, streamed from the store at that byte offset. Stops at
 * the CONTRACT's 1,000,000th row: the rows after it are never read (the read's `truncated` item
 * ends the iteration).
 */
export async function* fileRowsFrom(audience: AudiencePorts, scope: BusinessScope, source: FileAudience, start: { startOffset: number; startRow: number }): AsyncGenerator<AudienceRow> {
  if (start.startRow > MAX_AUDIENCE_ROWS) return;
  const options: ReadAudienceOptions =
    source.format === 'csv'
      ? { format: 'csv', header: { columns: source.header.columns, endOffset: source.header.end_offset }, ...start, maxRows: MAX_AUDIENCE_ROWS }
      : { format: 'ndjson', ...start, maxRows: MAX_AUDIENCE_ROWS };
  for await (const item of readAudienceRows(audience.openFile(scope, source.file_id, start.startOffset), options)) {
    if (item.kind === 'truncated') return;
    yield item;
  }
}
