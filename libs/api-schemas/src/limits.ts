/** CONTRACT 1: a larger JSON body is 413 INVALID_REQUEST (uploads stream elsewhere). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
