/**
 * MongoDB's (and FerretDB's) duplicate key error: an insert that lost to an existing _id or unique
 * key. Once-only decisions here are such inserts, so "duplicate" means "someone else decided".
 */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}
