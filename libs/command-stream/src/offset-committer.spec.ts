import type { TopicPartitionOffsetAndMetadata } from 'kafkajs';
import { createLogger } from '@cmsg/platform';
import { OffsetCommitter } from './offset-committer';
import { PartitionTracker } from './partition-tracker';

function setup(commitOffsets: (offsets: TopicPartitionOffsetAndMetadata[]) => Promise<void>) {
  const trackers = new Map<number, PartitionTracker>();
  const committer = new OffsetCommitter({ topic: 'commands', intervalMs: 10, logger: createLogger('offset-committer-spec', 'silent'), trackers, commitOffsets });
  return { trackers, committer };
}

function trackerWith(accepted: string[], completed: string[]): PartitionTracker {
  const tracker = new PartitionTracker();
  accepted.forEach((offset) => tracker.accept(offset));
  completed.forEach((offset) => tracker.complete(offset));
  return tracker;
}

describe('OffsetCommitter', () => {
  it('commits each partition at its lowest unfinished offset, and only when it moved', async () => {
    const sent: TopicPartitionOffsetAndMetadata[][] = [];
    const { trackers, committer } = setup(async (offsets) => void sent.push(offsets));
    trackers.set(0, trackerWith(['0', '1', '2'], ['0', '2']));
    trackers.set(1, trackerWith(['7'], ['7']));
    trackers.set(2, new PartitionTracker());

    expect(await committer.commit()).toBe(true);
    expect(await committer.commit()).toBe(true);
    expect(sent).toEqual([
      [
        { topic: 'commands', partition: 0, offset: '1' },
        { topic: 'commands', partition: 1, offset: '8' },
      ],
    ]);
    expect(committer.committedOffsets).toEqual({ 0: '1', 1: '8' });
  });

  it('ignores a failed commit of a partition revoked meanwhile', async () => {
    const { trackers, committer } = setup(async () => {
      trackers.delete(0);
      throw new Error('ILLEGAL_GENERATION');
    });
    trackers.set(0, trackerWith(['0'], ['0']));
    expect(await committer.commit()).toBe(true);
    expect(committer.committedOffsets).toEqual({});
  });

  it('reports a failed commit of an owned partition and retries it on the next round', async () => {
    let failures = 1;
    const sent: TopicPartitionOffsetAndMetadata[][] = [];
    const { trackers, committer } = setup(async (offsets) => {
      if (failures-- > 0) throw new Error('REBALANCE_IN_PROGRESS');
      sent.push(offsets);
    });
    trackers.set(0, trackerWith(['4'], ['4']));
    expect(await committer.commit()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([[{ topic: 'commands', partition: 0, offset: '5' }]]);
    committer.close();
  });

  it('throttles: completions within the interval share one commit', async () => {
    const sent: TopicPartitionOffsetAndMetadata[][] = [];
    const { trackers, committer } = setup(async (offsets) => void sent.push(offsets));
    const tracker = trackerWith(['0', '1', '2'], []);
    trackers.set(0, tracker);
    for (const offset of ['0', '1', '2']) {
      tracker.complete(offset);
      committer.schedule();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([[{ topic: 'commands', partition: 0, offset: '3' }]]);
  });
});
