/** A read answered from what the same key answered at most `maxAgeMs` ago (see recentReads). */
export type RecentRead<Key, Value> = (key: Key) => Promise<Value>;

export interface RecentReadsOptions<Key> {
  maxAgeMs: number;
  /** Past this many keys every remembered answer is dropped (a bound, not an eviction policy). */
  maxKeys?: number;
  /** The key's name in the memory; default String(key). */
  keyOf?: (key: Key) => string;
  now?: () => number;
}

/**
 * Calls `read` at most once per key per `maxAgeMs`: concurrent and later calls within that age share
 * its answer. A read that fails is not remembered, so the next call reads again.
 */
export function recentReads<Key, Value>(read: (key: Key) => Promise<Value>, { maxAgeMs, maxKeys = 1_000, keyOf = String, now = Date.now }: RecentReadsOptions<Key>): RecentRead<Key, Value> {
  const answers = new Map<string, { at: number; value: Promise<Value> }>();
  return (key) => {
    const name = keyOf(key);
    const remembered = answers.get(name);
    if (remembered && now() - remembered.at < maxAgeMs) return remembered.value;
    if (answers.size >= maxKeys) answers.clear();
    const value = read(key);
    const entry = { at: now(), value };
    answers.set(name, entry);
    value.catch(() => {
      if (answers.get(name) === entry) answers.delete(name);
    });
    return value;
  };
}
