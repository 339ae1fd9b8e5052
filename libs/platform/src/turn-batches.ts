interface Batch<Item, Result> {
  items: Item[];
  waiters: { resolve: (result: Result) => void; reject: (error: unknown) => void }[];
}

/**
 * Calls made in one turn of the event loop, run as one batch per key once the turn ends (a
 * setImmediate): a group commit for the writes many writers make one at a time. Under load, many
 * writers reach the same write in one turn, and each was a MongoDB round trip of its own; alone, a
 * call waits for no more than the end of its turn. `runBatch` answers each item's result in the
 * items' order; each caller's promise settles with its batch (a failed batch rejects all of it).
 */
export class TurnBatches<Item, Result> {
  private batches = new Map<string, Batch<Item, Result>>();
  private flushScheduled = false;

  constructor(private readonly runBatch: (items: readonly Item[]) => Promise<readonly Result[]>) {}

  add(key: string, item: Item): Promise<Result> {
    let batch = this.batches.get(key);
    if (!batch) {
      batch = { items: [], waiters: [] };
      this.batches.set(key, batch);
    }
    batch.items.push(item);
    const settled = new Promise<Result>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return settled;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batches = [...this.batches.values()];
    this.batches = new Map();
    for (const { items, waiters } of batches) {
      // Called inside then(): a runBatch that throws rejects its batch instead of the timer.
      Promise.resolve(items)
        .then((ready) => this.runBatch(ready))
        .then(
          (results) => waiters.forEach((waiter, index) => waiter.resolve(results[index]!)),
          (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
        );
    }
  }
}

/**
 * A read whose calls with the same key in one turn of the event loop share one call of `read`,
 * made once the turn ends: after every caller that shares it arrived, so each still sees what was
 * written before it called (a change answered before a caller asked is never missed). Callers
 * share the answer: they must not change it.
 */
export function sharedPerTurn<Args extends unknown[], Result>(keyOf: (...args: Args) => string, read: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
  const batches = new TurnBatches<Args, Result>(async (calls) => {
    const result = await read(...calls[0]!);
    return calls.map(() => result);
  });
  return (...args) => batches.add(keyOf(...args), args);
}
