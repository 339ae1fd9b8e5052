import { BUSINESS, OTHER_BUSINESS, aBroadcast } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { recentBroadcastStates } from '../core/broadcast-states';
import { admitsWaitingSend, broadcastSendAdmission } from './broadcast-send-admission';

describe('admitsWaitingSend', () => {
  it('admits the sends of a running broadcast, and of one paused for the messaging limit (they hold their unit)', () => {
    expect(admitsWaitingSend({ status: 'running', pause_reason: null })).toBe(true);
    expect(admitsWaitingSend({ status: 'paused', pause_reason: 'messaging_limit' })).toBe(true);
  });

  it('turns back the sends of a broadcast paused for any other reason, cancelled, finished or gone', () => {
    for (const pause_reason of ['manual', 'spam_rate_limit', 'template_not_approved'] as const) expect(admitsWaitingSend({ status: 'paused', pause_reason })).toBe(false);
    for (const status of ['cancelled', 'completed', 'failed', 'scheduled', 'preparing'] as const) expect(admitsWaitingSend({ status, pause_reason: null })).toBe(false);
    expect(admitsWaitingSend(null)).toBe(false);
  });
});

describe('broadcastSendAdmission', () => {
  let data: BroadcastData;
  let now: number;
  let reads: number;

  beforeEach(() => {
    data = { broadcasts: [aBroadcast({ status: 'running' })], recipients: [] };
    now = 1_000_000;
    reads = 0;
  });

  function admission() {
    const store = inMemoryBroadcastStore(data);
    const broadcasts = { ...store.broadcasts, findById: (...args: Parameters<typeof store.broadcasts.findById>) => ((reads += 1), store.broadcasts.findById(...args)) };
    return broadcastSendAdmission(recentBroadcastStates({ broadcasts }, { now: () => new Date(now) }));
  }

  it('refuses with BROADCAST_STATE_CONFLICT once the broadcast was paused by hand, within 250 ms of the pause', async () => {
    const admit = admission();
    await expect(admit({ businessId: BUSINESS, broadcastId: 'bc1' })).resolves.toBeUndefined();
    data.broadcasts[0]!.status = 'paused';
    data.broadcasts[0]!.pause_reason = 'manual';
    await expect(admit({ businessId: BUSINESS, broadcastId: 'bc1' })).resolves.toBeUndefined();
    now += 251;
    await expect(admit({ businessId: BUSINESS, broadcastId: 'bc1' })).rejects.toMatchObject({ code: 'BROADCAST_STATE_CONFLICT' });
    expect(reads).toBe(2);
  });

  it('lets the sends that hold their unit go out after a pause for the messaging limit', async () => {
    const admit = admission();
    data.broadcasts[0]!.status = 'paused';
    data.broadcasts[0]!.pause_reason = 'messaging_limit';
    await expect(admit({ businessId: BUSINESS, broadcastId: 'bc1' })).resolves.toBeUndefined();
  });

  it("never admits a send of another business's broadcast id", async () => {
    await expect(admission()({ businessId: OTHER_BUSINESS, broadcastId: 'bc1' })).rejects.toMatchObject({ code: 'BROADCAST_STATE_CONFLICT' });
  });
});
