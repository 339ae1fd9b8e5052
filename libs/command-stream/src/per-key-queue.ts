/**
 * FIFO queues per key with at most one item of a key taken at a time: items of one key come out in
 * push order, one after another; different keys come out concurrently, round-robin, so a key with
 * a long backlog does not starve the others.
 */
export class PerKeyQueue<T> {
  private readonly waiting = new Map<string, T[]>();
  /** Keys with a taken item not yet released. */
  private readonly active = new Set<string>();
  /** Keys with waiting items and none active, in the order they became ready (Set keeps insertion order). */
  private readonly ready = new Set<string>();
  private waitingCount = 0;

  push(key: string, item: T): void {
    const items = this.waiting.get(key);
    if (items) items.push(item);
    else this.waiting.set(key, [item]);
    this.waitingCount++;
    if (!this.active.has(key)) this.ready.add(key);
  }

  /** The next item of a key that has nothing active; the key stays active until release(key). */
  take(): { key: string; item: T } | undefined {
    const key = this.ready.values().next().value;
    if (key === undefined) return undefined;
    this.ready.delete(key);
    const items = this.waiting.get(key)!;
    const item = items.shift()!;
    if (items.length === 0) this.waiting.delete(key);
    this.waitingCount--;
    this.active.add(key);
    return { key, item };
  }

  release(key: string): void {
    if (!this.active.delete(key)) return;
    if (this.waiting.has(key)) this.ready.add(key);
  }

  /** Removes waiting items (never active ones) matching the predicate; returns how many. */
  dropWhere(predicate: (item: T) => boolean): number {
    let dropped = 0;
    for (const [key, items] of this.waiting) {
      const kept = items.filter((item) => !predicate(item));
      dropped += items.length - kept.length;
      if (kept.length > 0) {
        this.waiting.set(key, kept);
      } else {
        this.waiting.delete(key);
        this.ready.delete(key);
      }
    }
    this.waitingCount -= dropped;
    return dropped;
  }

  /** Items pushed and not yet taken. */
  get size(): number {
    return this.waitingCount;
  }

  get activeCount(): number {
    return this.active.size;
  }

  isActive(key: string): boolean {
    return this.active.has(key);
  }
}
