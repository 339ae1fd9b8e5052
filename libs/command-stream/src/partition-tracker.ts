/**
 * Offset bookkeeping of one partition. Commands of different keys finish out of order, but the
 * committed offset must never pass an unfinished command, or a crash would lose it: the offset to
 * commit is the lowest unfinished one (every offset below it is finished), or one past the highest
 * accepted offset when nothing is unfinished.
 */
export class PartitionTracker {
  /** Accepted offsets in ascending order; finished ones leave lazily (front pops, occasional compaction). */
  private accepted: bigint[] = [];
  private head = 0;
  private readonly unfinished = new Set<bigint>();
  /** One past the highest accepted offset; undefined until the first accept. */
  private next: bigint | undefined;

  /**
   * Records a fetched command as unfinished. Returns false for an offset at or below one already
   * accepted: kafkajs re-fetches from the committed offset when a partition survives a rebalance,
   * and those commands are already queued or done here.
   */
  accept(offset: string): boolean {
    if (this.isAccepted(offset)) return false;
    const value = BigInt(offset);
    this.accepted.push(value);
    this.unfinished.add(value);
    this.next = value + 1n;
    return true;
  }

  /** True for an offset at or below the highest accepted one (a re-fetch to skip). */
  isAccepted(offset: string): boolean {
    return this.next !== undefined && BigInt(offset) < this.next;
  }

  /** Returns false for an offset that is not unfinished here (unknown, or completed before). */
  complete(offset: string): boolean {
    const removed = this.unfinished.delete(BigInt(offset));
    if (removed) this.compactIfSparse();
    return removed;
  }

  get unfinishedCount(): number {
    return this.unfinished.size;
  }

  /** The next offset to read after a restart; undefined before anything was accepted. */
  commitOffset(): string | undefined {
    while (this.head < this.accepted.length && !this.unfinished.has(this.accepted[this.head])) this.head++;
    if (this.head < this.accepted.length) return this.accepted[this.head].toString();
    return this.next?.toString();
  }

  /** Keeps memory proportional to unfinished commands while one slow command holds the head. */
  private compactIfSparse(): void {
    const live = this.accepted.length - this.head;
    if (live < 64 || live <= 2 * this.unfinished.size) return;
    this.accepted = this.accepted.slice(this.head).filter((value) => this.unfinished.has(value));
    this.head = 0;
  }
}
