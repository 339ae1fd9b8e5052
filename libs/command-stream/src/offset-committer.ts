import type { TopicPartitionOffsetAndMetadata } from 'kafkajs';
import type { Logger } from '@cmsg/platform';
import type { PartitionTracker } from './partition-tracker';

export interface OffsetCommitterOptions {
  topic: string;
  intervalMs: number;
  logger: Logger;
  /** The owned partitions' trackers; the consumer replaces or removes them on rebalances. */
  trackers: ReadonlyMap<number, PartitionTracker>;
  commitOffsets: (offsets: TopicPartitionOffsetAndMetadata[]) => Promise<void>;
}

/**
 * Commits each owned partition's lowest unfinished offset, throttled: completions within intervalMs
 * share one commit, and commits run one at a time. Failures for partitions no longer owned are
 * expected after a rebalance and ignored; others are retried on the next round.
 */
export class OffsetCommitter {
  private readonly committed = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: OffsetCommitterOptions) {}

  /** Last offset committed per owned partition: the next one a restart reads. */
  get committedOffsets(): Record<number, string> {
    return Object.fromEntries(this.committed);
  }

  schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.commit();
    }, this.options.intervalMs);
  }

  /** Resolves false when offsets of partitions still owned failed to commit. */
  commit(): Promise<boolean> {
    const result = this.chain.then(() => this.commitOnce());
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Retries until done or the deadline: a rebalance in progress rejects commits for a moment. */
  async commitUntilDone(deadline: number): Promise<void> {
    while (!(await this.commit()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  }

  /** The partition left this consumer: its offsets are the next owner's business. */
  forget(partition: number): void {
    this.committed.delete(partition);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async commitOnce(): Promise<boolean> {
    const { topic, trackers, logger } = this.options;
    const pending: { partition: number; offset: string; tracker: PartitionTracker }[] = [];
    for (const [partition, tracker] of trackers) {
      const offset = tracker.commitOffset();
      if (offset !== undefined && offset !== this.committed.get(partition)) pending.push({ partition, offset, tracker });
    }
    if (pending.length === 0) return true;
    try {
      await this.options.commitOffsets(pending.map(({ partition, offset }) => ({ topic, partition, offset })));
      for (const { partition, offset, tracker } of pending) {
        if (trackers.get(partition) === tracker) this.committed.set(partition, offset);
      }
      return true;
    } catch (error) {
      const stillOwned = pending.filter(({ partition, tracker }) => trackers.get(partition) === tracker);
      if (stillOwned.length === 0) return true;
      logger.warn({ err: error, topic, partitions: stillOwned.map(({ partition }) => partition) }, 'command stream: offset commit failed; will retry');
      this.schedule();
      return false;
    }
  }
}
