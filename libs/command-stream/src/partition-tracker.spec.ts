import { PartitionTracker } from './partition-tracker';

describe('PartitionTracker', () => {
  it('has nothing to commit before the first accept', () => {
    expect(new PartitionTracker().commitOffset()).toBeUndefined();
  });

  it('holds the commit offset at the lowest unfinished offset while later ones finish first', () => {
    const tracker = new PartitionTracker();
    for (const offset of ['10', '11', '12', '13']) tracker.accept(offset);
    expect(tracker.commitOffset()).toBe('10');

    tracker.complete('12');
    tracker.complete('11');
    expect(tracker.commitOffset()).toBe('10');

    tracker.complete('10');
    expect(tracker.commitOffset()).toBe('13');

    tracker.complete('13');
    expect(tracker.commitOffset()).toBe('14');
    expect(tracker.unfinishedCount).toBe(0);
  });

  it('gives the same answer for every completion order', () => {
    const offsets = Array.from({ length: 30 }, (_, index) => String(100 + index));
    for (let round = 0; round < 50; round++) {
      const tracker = new PartitionTracker();
      offsets.forEach((offset) => tracker.accept(offset));
      const finished = new Set<string>();
      for (const offset of shuffled(offsets, round)) {
        tracker.complete(offset);
        finished.add(offset);
        const lowestUnfinished = offsets.find((candidate) => !finished.has(candidate));
        expect(tracker.commitOffset()).toBe(lowestUnfinished ?? '130');
      }
    }
  });

  it('skips gaps in offsets (compaction, transaction markers)', () => {
    const tracker = new PartitionTracker();
    tracker.accept('5');
    tracker.accept('9');
    tracker.complete('5');
    expect(tracker.commitOffset()).toBe('9');
    tracker.complete('9');
    expect(tracker.commitOffset()).toBe('10');
  });

  it('refuses offsets it already accepted, as kafkajs re-fetches them after a rebalance', () => {
    const tracker = new PartitionTracker();
    tracker.accept('3');
    tracker.accept('4');
    tracker.complete('3');
    expect(tracker.isAccepted('3')).toBe(true);
    expect(tracker.accept('3')).toBe(false);
    expect(tracker.accept('4')).toBe(false);
    expect(tracker.isAccepted('5')).toBe(false);
    expect(tracker.accept('5')).toBe(true);
    expect(tracker.commitOffset()).toBe('4');
  });

  it('ignores completions of unknown or already completed offsets', () => {
    const tracker = new PartitionTracker();
    tracker.accept('1');
    expect(tracker.complete('0')).toBe(false);
    expect(tracker.complete('1')).toBe(true);
    expect(tracker.complete('1')).toBe(false);
    expect(tracker.commitOffset()).toBe('2');
  });

  it('handles offsets beyond Number.MAX_SAFE_INTEGER', () => {
    const tracker = new PartitionTracker();
    tracker.accept('9007199254740993');
    tracker.accept('9007199254740994');
    tracker.complete('9007199254740993');
    expect(tracker.commitOffset()).toBe('9007199254740994');
  });

  it('stays correct across compaction while one slow command holds the head', () => {
    const tracker = new PartitionTracker();
    for (let offset = 0; offset < 10_000; offset++) tracker.accept(String(offset));
    for (let offset = 1; offset < 10_000; offset++) tracker.complete(String(offset));
    expect(tracker.unfinishedCount).toBe(1);
    expect(tracker.commitOffset()).toBe('0');
    tracker.accept('10000');
    tracker.complete('0');
    expect(tracker.commitOffset()).toBe('10000');
  });
});

/** Deterministic Fisher-Yates so a failure is reproducible. */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed + 1;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
}
