import { PerKeyQueue } from './per-key-queue';

describe('PerKeyQueue', () => {
  it('gives out one item per key at a time, in push order', () => {
    const queue = new PerKeyQueue<string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');

    expect(queue.take()).toEqual({ key: 'a', item: 'a1' });
    expect(queue.take()).toEqual({ key: 'b', item: 'b1' });
    expect(queue.take()).toBeUndefined();
    expect(queue.isActive('a')).toBe(true);

    queue.release('a');
    expect(queue.take()).toEqual({ key: 'a', item: 'a2' });
    expect(queue.size).toBe(0);
  });

  it('keeps each key in order under random interleaving of takes and releases', () => {
    const queue = new PerKeyQueue<number>();
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
    const seen = new Map<string, number[]>(keys.map((key) => [key, []]));
    const active: string[] = [];
    let pushed = 0;
    for (let step = 0; step < 2000; step++) {
      const roll = (step * 7919) % 10;
      if (roll < 4 && pushed < 500) {
        const key = keys[(step * 31) % keys.length];
        queue.push(key, pushed++);
      } else if (roll < 7) {
        const next = queue.take();
        if (next) {
          expect(active).not.toContain(next.key);
          active.push(next.key);
          seen.get(next.key)!.push(next.item);
        }
      } else if (active.length > 0) {
        queue.release(active.splice(step % active.length, 1)[0]);
      }
    }
    for (const items of seen.values()) expect(items).toEqual([...items].sort((x, y) => x - y));
  });

  it('rotates between ready keys so one backlog does not starve the others', () => {
    const queue = new PerKeyQueue<string>();
    for (let index = 0; index < 3; index++) queue.push('busy', `busy${index}`);
    queue.push('quiet', 'quiet0');

    const order: string[] = [];
    for (let round = 0; round < 4; round++) {
      const next = queue.take()!;
      order.push(next.item);
      queue.release(next.key);
    }
    expect(order).toEqual(['busy0', 'quiet0', 'busy1', 'busy2']);
  });

  it('drops waiting items but leaves active keys active until released', () => {
    const queue = new PerKeyQueue<{ partition: number; id: string }>();
    queue.push('0:a', { partition: 0, id: 'a1' });
    queue.push('0:a', { partition: 0, id: 'a2' });
    queue.push('1:b', { partition: 1, id: 'b1' });
    expect(queue.take()?.item.id).toBe('a1');

    expect(queue.dropWhere((item) => item.partition === 0)).toBe(1);
    expect(queue.size).toBe(1);
    expect(queue.isActive('0:a')).toBe(true);
    expect(queue.take()?.item.id).toBe('b1');
    queue.release('0:a');
    expect(queue.take()).toBeUndefined();

    queue.push('0:a', { partition: 0, id: 'a3' });
    expect(queue.take()?.item.id).toBe('a3');
  });

  it('does not make a key ready by a stray release', () => {
    const queue = new PerKeyQueue<string>();
    queue.push('a', 'a1');
    queue.release('a');
    expect(queue.take()).toEqual({ key: 'a', item: 'a1' });
    queue.push('a', 'a2');
    queue.release('b');
    expect(queue.take()).toBeUndefined();
    expect(queue.activeCount).toBe(1);
  });
});
