export { readAudienceRows } from './read-audience-rows';
export { readCsvHeader } from './csv-header';
export { AudienceFileError } from './audience-file-error';
export type { AudienceFileProblem } from './audience-file-error';
export { MAX_AUDIENCE_FILE_BYTES, MAX_AUDIENCE_ROWS, MAX_FIELD_BYTES, MAX_LINE_BYTES } from './audience-file-limits';
export type { AudienceByteSource, AudienceReadItem, AudienceRow, AudienceTruncation, CsvHeader, ReadAudienceOptions } from './audience-row';
