/** CONTRACT 1: a larger JSON body is 413 INVALID_REQUEST (uploads stream elsewhere). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The chat platform batches at most a few hundred events per webhook POST; anything larger is not a webhook. */
export const MAX_CHAT_WEBHOOK_BODY_BYTES = 4 * 1024 * 1024;
