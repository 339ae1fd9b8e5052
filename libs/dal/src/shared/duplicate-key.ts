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
