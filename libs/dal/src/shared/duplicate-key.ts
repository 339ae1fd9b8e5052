/** MongoDB's duplicate key error: a write that lost to an existing _id or unique key. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/**
 * The name of the unique index a duplicate key error names (`E11000 ... index: <name> dup key: ...`,
 * the message of MongoDB and of the local server alike), or null when it names none.
 */
export function duplicateKeyIndex(error: unknown): string | null {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? (/ index: (\S+) dup key/.exec(message)?.[1] ?? null) : null;
}

/** Inserts; false when the document (or one with the same unique key) already exists. */
export async function insertIfAbsent(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/**
 * Inserts every document unless its _id or unique key exists already (ordered: false, so one
 * duplicate does not stop the rest): answers the indexes of the documents that lost to one. Any
 * other error throws.
 */
export async function insertManyIfAbsent(collection: { insertMany(documents: never[], options: { ordered: false }): Promise<unknown> }, documents: readonly object[]): Promise<Set<number>> {
  if (documents.length === 0) return new Set();
  try {
    await collection.insertMany([...documents] as never[], { ordered: false });
    return new Set();
  } catch (error) {
    const writeErrors = ([] as { index?: number; code?: unknown }[]).concat((error as { writeErrors?: { index: number; code?: unknown }[] }).writeErrors ?? []);
    // A lone document's duplicate may come back as a plain write error, without writeErrors.
    if (writeErrors.length === 0 && documents.length === 1 && isDuplicateKeyError(error)) return new Set([0]);
    if (writeErrors.length === 0 || !writeErrors.every(isDuplicateKeyError)) throw error;
    return new Set(writeErrors.map((writeError) => writeError.index!));
  }
}
