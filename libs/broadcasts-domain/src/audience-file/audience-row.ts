/** A data row of an audience file; `row` counts data rows from 1 (the header and blank lines are not rows). */
export type AudienceRow =
  | { kind: 'valid'; row: number; endOffset: number; phone: string; columns: Record<string, string> }
  | { kind: 'invalid'; row: number; endOffset: number; reason: string };

/**
 * The last item of a read that stopped at `maxRows` while the file had more: `row` is the first row
 * left unread and `endOffset` where it starts.
 */
export interface AudienceTruncation {
  kind: 'truncated';
  row: number;
  endOffset: number;
}

export type AudienceReadItem = AudienceRow | AudienceTruncation;

/** A CSV header as `readCsvHeader` returns it: its column names (trimmed) and the byte offset just after it. */
export interface CsvHeader {
  columns: string[];
  endOffset: number;
}

export type AudienceByteSource = AsyncIterable<Buffer | Uint8Array>;

interface CommonReadOptions {
  /**
   * The byte offset in the whole file where `source` starts: 0, or a row's `endOffset` to resume
   * after that row. Rows report offsets in the whole file either way.
   */
  startOffset?: number;
  /** The number of the first row read: 1, or the checkpoint row + 1 when resuming. */
  startRow?: number;
  /** The read stops after this row number and ends with a `truncated` item if more rows follow. */
  maxRows?: number;
  /** The whole file's size limit; reading past it throws AudienceFileError `too_large`. */
  maxBytes?: number;
}

export type ReadAudienceOptions =
  | (CommonReadOptions & {
      format: 'csv';
      /**
       * The header read once by `readCsvHeader`: then `source` starts at `startOffset` (default the
       * header's `endOffset`) and holds data rows only. Without it the source is the whole file.
       */
      header?: CsvHeader;
    })
  | (CommonReadOptions & { format: 'ndjson' });
