/** CONTRACT 10.4: an audience file holds up to 100 MB and 1,000,000 rows. */
export const MAX_AUDIENCE_FILE_BYTES = 100 * 1024 * 1024;
export const MAX_AUDIENCE_ROWS = 1_000_000;

/** Past these a row is invalid; they also bound what one row can make the reader hold. */
export const MAX_FIELD_BYTES = 64 * 1024;
export const MAX_LINE_BYTES = 1024 * 1024;
