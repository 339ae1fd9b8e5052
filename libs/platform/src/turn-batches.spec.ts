import { TurnBatches, sharedPerTurn } from './turn-batches';

describe('TurnBatches', () => {
  it('runs the calls of one turn as one batch per key, and answers each caller its own result', async () => {
    const runs: string[][] = [];
    const batches = new TurnBatches<string, string>(async (items) => {
      runs.push([...items]);
      return items.map((item) => item.toUpperCase());
    });

    const results = await Promise.all([batches.add('a', 'x'), batches.add('b', 'y'), batches.add('a', 'z')]);

    expect(results).toEqual(['X', 'Y', 'Z']);
    expect(runs).toEqual([['x', 'z'], ['y']]);
  });

  it('runs nothing before the turn ends, and a call of a later turn in a batch of its own', async () => {
    const runs: string[][] = [];
    const batches = new TurnBatches<string, number>(async (items) => {
      runs.push([...items]);
      return items.map((item) => item.length);
    });

    const first = batches.add('a', 'one');
    expect(runs).toEqual([]);
    expect(await first).toBe(3);
    expect(await batches.add('a', 'three')).toBe(5);

    expect(runs).toEqual([['one'], ['three']]);
  });

  it('rejects every caller of a batch that failed, thrown or rejected, and leaves the other batches alone', async () => {
    const batches = new TurnBatches<string, string>((items) => {
      if (items[0] === 'throws') throw new Error('thrown');
      return items[0] === 'rejects' ? Promise.reject(new Error('rejected')) : Promise.resolve(items.map(() => 'ok'));
    });

    const outcomes = await Promise.allSettled([batches.add('a', 'throws'), batches.add('a', 'too'), batches.add('b', 'rejects'), batches.add('c', 'fine')]);

    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message))).toEqual(['thrown', 'thrown', 'rejected', 'ok']);
  });
});

describe('sharedPerTurn', () => {
  it('makes one read per key for the calls of one turn, after the last of them, and a new one in a later turn', async () => {
    let stored = 'v1';
    const reads: string[] = [];
    const read = sharedPerTurn(
      (key: string) => key,
      async (key: string) => {
        reads.push(key);
        return `${key}:${stored}`;
      },
    );
    const first = read('a');
    // Written after the first call, still in its turn: the shared read comes after it.
    stored = 'v2';
    expect(await Promise.all([first, read('b'), read('a')])).toEqual(['a:v2', 'b:v2', 'a:v2']);
    expect(reads).toEqual(['a', 'b']);
    stored = 'v3';
    expect(await read('a')).toBe('a:v3');
    expect(reads).toEqual(['a', 'b', 'a']);
  });

  it('fails every call that shared a failed read', async () => {
    const read = sharedPerTurn((key: string) => key, async () => Promise.reject(new Error('down')));
    const results = await Promise.allSettled([read('a'), read('a')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
