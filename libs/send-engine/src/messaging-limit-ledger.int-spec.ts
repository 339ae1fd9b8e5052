import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { MessagingLimitLedger } from './messaging-limit-ledger';
import { closeReplicas, connectReplicas, expectRemainingOfSpan, sleep, timed, uniqueKeyPrefix } from './send-engine.int-fixture';

// The stand-in for 24 h, and the gap between the two contacts' units: each long beside a loaded machine's
// pause of a second or two, so every call below lands on the side of a unit's end that the test says.
const WINDOW_MS = 6000;
const GAP_MS = 3000;

describe('MessagingLimitLedger (real Redis)', () => {
  let replicas: RedisClient[];
  beforeAll(async () => {
    replicas = await connectReplicas(2);
  });
  afterAll(() => closeReplicas(replicas));

  function ledgers() {
    const keyPrefix = uniqueKeyPrefix();
    return replicas.map((redis) => new MessagingLimitLedger(redis, { keyPrefix, windowMs: WINDOW_MS }));
  }

  it('takes one unit per contact reached in the window, on every replica', async () => {
    const [first, second] = ledgers();
    const channelKey = randomUUID();
    await expect(first.take({ channelKey, contactKey: 'a', limit: 5 })).resolves.toMatchObject({ ok: true, newUnit: true });
    await expect(second.take({ channelKey, contactKey: 'b', limit: 5 })).resolves.toMatchObject({ ok: true, newUnit: true });
    await expect(second.take({ channelKey, contactKey: 'a', limit: 5 })).resolves.toEqual({ ok: true, newUnit: false });
    await expect(first.remaining({ channelKey, limit: 5 })).resolves.toBe(3);
    await expect(first.remaining({ channelKey: randomUUID(), limit: 5 })).resolves.toBe(5);
  });

  it('refuses a new contact at the limit until the oldest unit leaves the window, 24 h (here 6 s) after it was taken', async () => {
    const [ledger] = ledgers();
    const channelKey = randomUUID();
    const oldestTake = await timed(() => ledger.take({ channelKey, contactKey: 'a', limit: 2 }));
    await sleep(GAP_MS);
    const bTake = await timed(() => ledger.take({ channelKey, contactKey: 'b', limit: 2 }));
    await sleep(100);
    // Reaching a contact again does not move its unit: 'a' still frees 6 s after its first take.
    await expect(ledger.take({ channelKey, contactKey: 'a', limit: 2 })).resolves.toEqual({ ok: true, newUnit: false });

    const refusal = await timed(() => ledger.take({ channelKey, contactKey: 'c', limit: 2 }));
    expect(refusal.value.ok).toBe(false);
    const { retryAfterMs } = refusal.value as { retryAfterMs: number };
    expectRemainingOfSpan(retryAfterMs, WINDOW_MS, oldestTake, refusal);
    await expect(ledger.remaining({ channelKey, limit: 2 })).resolves.toBe(0);

    await sleep(retryAfterMs + 5);
    await expect(ledger.remaining({ channelKey, limit: 2 })).resolves.toBe(1);
    await expect(ledger.take({ channelKey, contactKey: 'c', limit: 2 })).resolves.toMatchObject({ ok: true, newUnit: true });
    await expect(ledger.take({ channelKey, contactKey: 'a', limit: 2 })).resolves.toMatchObject({ ok: false });
    await sleep(Math.max(0, bTake.endedAt + WINDOW_MS + 50 - Date.now()));
    // 'b' left the window: 'a', reached more than 6 s ago, takes a new unit.
    await expect(ledger.take({ channelKey, contactKey: 'a', limit: 2 })).resolves.toMatchObject({ ok: true, newUnit: true });
  });

  it('records every contact when unlimited', async () => {
    const [ledger] = ledgers();
    const channelKey = randomUUID();
    for (const contactKey of ['a', 'b', 'c']) {
      await expect(ledger.take({ channelKey, contactKey, limit: null })).resolves.toMatchObject({ ok: true, newUnit: true });
    }
    await expect(ledger.remaining({ channelKey, limit: null })).resolves.toBeNull();
    await expect(ledger.remaining({ channelKey, limit: 10 })).resolves.toBe(7);
    await expect(ledger.take({ channelKey, contactKey: 'd', limit: 3 })).resolves.toMatchObject({ ok: false });
  });

  it('gives back only the unit its take added', async () => {
    const [ledger] = ledgers();
    const channelKey = randomUUID();
    const taken = await ledger.take({ channelKey, contactKey: 'a', limit: 1 });
    if (!taken.ok || !taken.newUnit) throw new Error(`expected a new unit, got ${JSON.stringify(taken)}`);
    await expect(ledger.take({ channelKey, contactKey: 'b', limit: 1 })).resolves.toMatchObject({ ok: false });

    await expect(ledger.release({ channelKey, contactKey: 'a', token: taken.token })).resolves.toBe(true);
    await expect(ledger.release({ channelKey, contactKey: 'a', token: taken.token })).resolves.toBe(false);
    await expect(ledger.remaining({ channelKey, limit: 1 })).resolves.toBe(1);

    await sleep(5);
    const retaken = await ledger.take({ channelKey, contactKey: 'a', limit: 1 });
    expect(retaken).toMatchObject({ ok: true, newUnit: true });
    await expect(ledger.release({ channelKey, contactKey: 'a', token: taken.token })).resolves.toBe(false);
    await expect(ledger.remaining({ channelKey, limit: 1 })).resolves.toBe(0);
  });
});
