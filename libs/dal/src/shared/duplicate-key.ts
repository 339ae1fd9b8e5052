/** MongoDB's duplicate key error: an insert (or upsert) that met an existing _id or unique key. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/**
 * The positions of the documents of an unordered insertMany that lost to an existing key (every
 * other document was inserted). Any other failure is rethrown: then it is unknown what was written.
 */
export function lostInsertPositions(error: unknown): Set<number> {
  const writeErrors = (error as { writeErrors?: { index?: unknown; code?: unknown }[] | { index?: unknown; code?: unknown } } | null)?.writeErrors;
  const failures = ([] as { index?: unknown; code?: unknown }[]).concat(writeErrors ?? []);
  if (failures.length === 0 || !failures.every((failure) => isDuplicateKeyError(failure) && typeof failure.index === 'number')) throw error;
  return new Set(failures.map((failure) => failure.index as number));
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
