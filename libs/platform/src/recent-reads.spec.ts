import { recentReads } from './recent-reads';

describe('recentReads', () => {
  function counted() {
    const calls: string[] = [];
    let clock = 0;
    const read = recentReads(
      async (key: string) => {
        calls.push(key);
        if (key === 'broken') throw new Error('unreachable');
        return `${key}@${clock}`;
      },
      { maxAgeMs: 1_000, maxKeys: 2, now: () => clock },
    );
    return { calls, read, advance: (ms: number) => (clock += ms) };
  }

  it('answers a key from its read while that read is younger than maxAgeMs, and reads again after', async () => {
    const { calls, read, advance } = counted();
    await expect(Promise.all([read('a'), read('a')])).resolves.toEqual(['a@0', 'a@0']);
    advance(999);
    await expect(read('a')).resolves.toBe('a@0');
    advance(1);
    await expect(read('a')).resolves.toBe('a@1000');
    expect(calls).toEqual(['a', 'a']);
  });

  it('reads each key on its own', async () => {
    const { calls, read } = counted();
    await read('a');
    await read('b');
    await read('a');
    expect(calls).toEqual(['a', 'b']);
  });

  it('does not remember a failed read', async () => {
    const { calls, read } = counted();
    await expect(read('broken')).rejects.toThrow('unreachable');
    await expect(read('broken')).rejects.toThrow('unreachable');
    expect(calls).toEqual(['broken', 'broken']);
  });

  it('forgets every answer once it holds maxKeys', async () => {
    const { calls, read } = counted();
    await read('a');
    await read('b');
    await read('c');
    await read('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
