import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';
import { CatalogError } from '@cmsg/errors';
import type { MessagingUnitRequest, MessagingUnitTaken } from './messaging-limit-ledger';
import { DEFAULT_PACED_SENDER_OPTIONS, PacedSender, SendAlreadyClaimed, type PacedSenderOptions, type ProviderSender, type SendEngineParts, type SendPacing, pacedSenderOptionsFor, sendLeaseMs } from './paced-sender';
import type { PairReservation } from './pair-pacer';
import type { SlotCommitRequest, SlotCommitted } from './channel-rate-budget';
import { type SlotRequest, SlotWaitExpired, type WaitForSlotsOptions } from './wait-for-slots';

const channel: ChannelCredentials = { phone_number_id: 'pn1', access_token: 't' };
const message = { to: { phone: '+5215512345678' }, content: { type: 'text', text: { body: 'Hi' } } } as unknown as OutboundMessage;
const live: SendPacing = { businessId: 'b1', channelId: 'ch1', maxMessagesPerSecond: 80, messagingLimit: 1000, contactId: 'c1', isTemplate: false };
const template: SendPacing = { ...live, isTemplate: true };
const broadcast: SendPacing = { ...template, broadcast: { uuid: 'bc1', maxPerSecond: 20 } };
const refused = (providerCode: string | null) => new CatalogError('SEND_FAILED', 'x', { providerCode });

/** The four parts of the engine as deterministic fakes that keep what they were asked. */
class FakeEngine implements SendEngineParts {
  gate: SendEngineParts['gate'];
  readonly slots: SlotRequest[] = [];
  readonly slotWaitsUntil: (number | undefined)[] = [];
  /** Slot waits granted before the budget answers SlotWaitExpired (Infinity: never). */
  slotsBeforeExpiry = Number.POSITIVE_INFINITY;
  readonly throttles: string[] = [];
  readonly accepted: string[] = [];
  readonly reservations: PairReservation[] = [];
  readonly taken: MessagingUnitRequest[] = [];
  readonly released: { channelKey: string; contactKey: string; token: string }[] = [];
  /** retryInMs the pair pacer answers in turn (then 0). */
  pairWaits: number[] = [];
  unit: MessagingUnitTaken = { ok: true, newUnit: true, token: '1700000000000' };
  /** What happened, in order: `raise <send>`, `slot <id>`, `commit <id>[ pass <send>]`, and the provider's calls (`call`) where a test records them. */
  readonly steps: string[] = [];
  readonly commits: SlotCommitRequest[] = [];
  /** A recovery took the send's call fence down before the sender passed it. */
  fenceTakenDown = false;
  /** retryInMs of commits that find no room for their slot, in turn (then each commit goes through). */
  commitWaits: number[] = [];
  /** How long each commit's answer takes to come back, in turn (then 1 ms): the monotonic clock moves by it. */
  commitRoundTrips: number[] = [];
  monotonicMs = 0;
  /** A part that throws a plain Error (Redis unreachable). */
  down: 'budget' | 'backOff' | 'pairs' | 'ledger' | 'fences' | null = null;

  private check(part: NonNullable<FakeEngine['down']>): void {
    if (this.down === part) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }

  budget = {
    waitForSlots: async (request: SlotRequest, options?: WaitForSlotsOptions) => {
      this.check('budget');
      this.slotWaitsUntil.push(options?.until);
      if (this.slots.length >= this.slotsBeforeExpiry) throw new SlotWaitExpired(45_000);
      this.slots.push(request);
      const slotId = `s${this.slots.length}`;
      this.steps.push(`slot ${slotId}`);
      return { granted: 1, waitedMs: 0, slotId };
    },
    commit: async (request: SlotCommitRequest): Promise<SlotCommitted> => {
      this.check('budget');
      this.commits.push(request);
      this.steps.push(`commit ${request.slotId}${request.fenceId === undefined ? '' : ` pass ${request.channelKey}/${request.fenceId}`}`);
      this.monotonicMs += this.commitRoundTrips.shift() ?? 1;
      if (request.fenceId !== undefined && this.fenceTakenDown) return { outcome: 'fence-gone' };
      const retryInMs = this.commitWaits.shift();
      return retryInMs === undefined ? { outcome: 'call', atMs: 0 } : { outcome: 'wait', retryInMs };
    },
  };
  backOff = {
    recordAccepted: async (channelKey: string) => {
      this.accepted.push(channelKey);
      if (this.down === 'backOff') throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    },
    recordThrottled: async (channelKey: string) => {
      this.check('backOff');
      this.throttles.push(channelKey);
      return { backOffMs: 1000, learnedPerSecond: null };
    },
  };
  pairs = {
    reserve: async (reservation: PairReservation) => {
      this.check('pairs');
      this.reservations.push(reservation);
      return { retryInMs: this.pairWaits.shift() ?? 0 };
    },
  };
  ledger = {
    take: async (request: MessagingUnitRequest) => {
      this.check('ledger');
      this.taken.push(request);
      return this.unit;
    },
    release: async (request: { channelKey: string; contactKey: string; token: string }) => {
      this.released.push(request);
      return true;
    },
  };
  fences = {
    raise: async (fence: { channelKey: string; fenceId: string }) => {
      this.check('fences');
      this.steps.push(`raise ${fence.channelKey}/${fence.fenceId}`);
    },
  };
}

/** The provider answers in turn (then a result); each answer an Error to throw or a result. */
class FakeProvider implements ProviderSender {
  calls = 0;
  constructor(private readonly answers: (Error | SendMessageResult)[] = []) {}
  async sendMessage(): Promise<SendMessageResult> {
    this.calls += 1;
    const answer = this.answers.shift() ?? { provider_message_id: `wamid.${this.calls}` };
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

describe('PacedSender', () => {
  let engine: FakeEngine;
  let sleeps: number[];
  let spamPaused: SendPacing[];
  let clock: number;
  let fenceIds: number;
  const options = (): PacedSenderOptions => ({
    newFenceId: () => `fence-${++fenceIds}`,
    monotonicNow: () => engine.monotonicMs,
    pairIntervalMs: 6_000,
    throttleAttempts: 3,
    pairRateAttempts: 2,
    pairRetryMs: 6_000,
    pacingWaitMs: 10_000,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    onSpamRateLimit: async (pacing) => {
      spamPaused.push(pacing);
    },
  });
  const sender = (provider: FakeProvider, overrides: Partial<PacedSenderOptions> = {}) => new PacedSender(provider, engine, { ...options(), ...overrides });

  beforeEach(() => {
    engine = new FakeEngine();
    sleeps = [];
    spamPaused = [];
    clock = 1_700_000_000_000;
    fenceIds = 0;
  });

  it('calls the provider directly, touching no part, for a send without pacing', async () => {
    const provider = new FakeProvider();
    await expect(sender(provider).sendMessage(channel, message)).resolves.toEqual({ provider_message_id: 'wamid.1' });
    expect([engine.slots, engine.reservations, engine.taken]).toEqual([[], [], []]);
  });

  it('asks the budget for a live slot of the channel, and only records the pair time of a live send', async () => {
    const provider = new FakeProvider();
    await expect(sender(provider).sendMessage(channel, message, live)).resolves.toEqual({ provider_message_id: 'wamid.1' });
    expect(engine.slots).toEqual([{ channelKey: 'ch1', perSecond: 80, priority: 'live' }]);
    expect(engine.reservations).toEqual([{ channelKey: 'ch1', contactKey: 'c1', intervalMs: 6_000, mode: 'record' }]);
    expect(sleeps).toEqual([]);
    // Not a template: no messaging-limit unit.
    expect(engine.taken).toEqual([]);
  });

  it("asks for a broadcast slot under the broadcast's own per-second key, after waiting out the pair interval", async () => {
    engine.pairWaits = [4_200, 1_300];
    const provider = new FakeProvider();
    await sender(provider).sendMessage(channel, message, broadcast);
    expect(engine.reservations).toEqual(Array(3).fill({ channelKey: 'ch1', contactKey: 'c1', intervalMs: 6_000, mode: 'wait' }));
    expect(sleeps).toEqual([4_200, 1_300]);
    expect(engine.slots).toEqual([{ channelKey: 'ch1', perSecond: 80, priority: 'broadcast', broadcastKey: 'bc1', broadcastPerSecond: 20 }]);
    expect(provider.calls).toBe(1);
  });

  it('asks for a broadcast slot without a key of its own when the broadcast sets no max_per_second', async () => {
    await sender(new FakeProvider()).sendMessage(channel, message, { ...broadcast, broadcast: { uuid: 'bc1', maxPerSecond: 0 } });
    expect(engine.slots).toEqual([{ channelKey: 'ch1', perSecond: 80, priority: 'broadcast' }]);
  });

  describe('provider rate limits', () => {
    it('records the channel back-off on 130429 and calls again after a new slot; the accepted call is recorded', async () => {
      const provider = new FakeProvider([refused('130429'), refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, live)).resolves.toEqual({ provider_message_id: 'wamid.3' });
      expect(engine.throttles).toEqual(['ch1', 'ch1']);
      expect(engine.accepted).toEqual(['ch1']);
      expect(engine.slots).toHaveLength(3);
      expect(sleeps).toEqual([]);
    });

    it('surfaces 130429 once throttleAttempts calls were throttled', async () => {
      const provider = new FakeProvider([refused('130429'), refused('130429'), refused('130429'), refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, live)).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: '130429' });
      expect(provider.calls).toBe(3);
      expect(engine.throttles).toEqual(['ch1', 'ch1']);
    });

    it('calls again after pairRetryMs on 131056, and surfaces it once pairRateAttempts calls were refused', async () => {
      const retried = new FakeProvider([refused('131056')]);
      await expect(sender(retried).sendMessage(channel, message, live)).resolves.toEqual({ provider_message_id: 'wamid.2' });
      expect(sleeps).toEqual([6_000]);
      expect(engine.throttles).toEqual([]);

      sleeps = [];
      const refusedTwice = new FakeProvider([refused('131056'), refused('131056'), refused('131056')]);
      await expect(sender(refusedTwice).sendMessage(channel, message, broadcast)).rejects.toMatchObject({ providerCode: '131056' });
      expect(refusedTwice.calls).toBe(2);
      expect(sleeps).toEqual([6_000]);
    });

    it('counts 130429 and 131056 apart', async () => {
      const provider = new FakeProvider([refused('130429'), refused('131056'), refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, live)).resolves.toEqual({ provider_message_id: 'wamid.4' });
      expect(engine.throttles).toEqual(['ch1', 'ch1']);
      expect(sleeps).toEqual([6_000]);
    });

    it('surfaces 131048 at once, after telling the channel to pause its broadcasts (a failure of which is not the send’s)', async () => {
      const provider = new FakeProvider([refused('131048')]);
      await expect(sender(provider).sendMessage(channel, message, broadcast)).rejects.toMatchObject({ providerCode: '131048' });
      expect(provider.calls).toBe(1);
      expect(spamPaused).toEqual([broadcast]);

      const failingPause = new FakeProvider([refused('131048')]);
      const pausing = sender(failingPause, { onSpamRateLimit: async () => Promise.reject(new Error('mongo down')) });
      await expect(pausing.sendMessage(channel, message, broadcast)).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: '131048' });
    });

    it('surfaces any other provider answer at once', async () => {
      const provider = new FakeProvider([refused('131026')]);
      await expect(sender(provider).sendMessage(channel, message, live)).rejects.toMatchObject({ providerCode: '131026' });
      expect(provider.calls).toBe(1);
      expect([engine.throttles, sleeps, spamPaused]).toEqual([[], [], []]);
    });
  });

  describe('live first inside the process', () => {
    it('runs a live send as live work, and a broadcast send after its turn at the gate, released after the call', async () => {
      const order: string[] = [];
      engine.gate = {
        live: async (work) => {
          order.push('live');
          return work();
        },
        admitBroadcast: async (until) => {
          order.push(`admit until ${until - clock}`);
          return true;
        },
        releaseBroadcast: () => void order.push('release'),
      };
      const provider = new FakeProvider();
      await sender(provider).sendMessage(channel, message, live);
      await sender(provider).sendMessage(channel, message, broadcast);
      expect(order).toEqual(['live', 'admit until 10000', 'release']);
      expect(provider.calls).toBe(2);
    });

    it('answers SERVICE_UNAVAILABLE, calling nobody, when the turn does not come within the pacing wait', async () => {
      engine.gate = { live: async (work) => work(), admitBroadcast: async () => false, releaseBroadcast: () => undefined };
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, broadcast)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', providerCode: undefined });
      expect(provider.calls).toBe(0);
    });
  });

  describe('a send never outlives its lease', () => {
    it('gives the budget the end of its pacing wait', async () => {
      await sender(new FakeProvider()).sendMessage(channel, message, live);
      expect(engine.slotWaitsUntil).toEqual([clock + 10_000]);
    });

    it('answers SERVICE_UNAVAILABLE, calling nobody and giving the unit back, when no slot came within the pacing wait', async () => {
      engine.slotsBeforeExpiry = 0;
      const provider = new FakeProvider();
      const error = await sender(provider).sendMessage(channel, message, template).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', providerCode: undefined, message: expect.stringContaining('within 10 s') });
      expect(provider.calls).toBe(0);
      expect(engine.released).toEqual([{ channelKey: 'ch1', contactKey: 'c1', token: '1700000000000' }]);
    });

    it("fails with the provider's 130429 when the wait for the next slot after a throttle runs out", async () => {
      engine.slotsBeforeExpiry = 1;
      const provider = new FakeProvider([refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, broadcast)).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: '130429' });
      expect(provider.calls).toBe(1);
      expect(engine.slotWaitsUntil).toEqual([clock + 10_000, clock + 10_000]);
    });

    it('does not wait out a pair interval that ends after the pacing wait', async () => {
      engine.pairWaits = [4_000, 12_000];
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, broadcast)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(sleeps).toEqual([4_000]);
      expect(provider.calls).toBe(0);
    });

    it('has a lease that covers the pacing wait, every call at its timeout and the 131056 waits', () => {
      // 45 s of pacing, 7 calls (5 throttled + 2 more for 131056) of 15 s, 2 waits of 6 s, 15 s of margin.
      expect(sendLeaseMs(15_000, DEFAULT_PACED_SENDER_OPTIONS)).toBe(45_000 + 7 * 15_000 + 2 * 6_000 + 15_000);
      expect(pacedSenderOptionsFor(10_000)).toMatchObject({ pairIntervalMs: 10_000, pacingWaitMs: 32_000 + 10_000 + 7_000 });
    });
  });

  describe('messaging limit', () => {
    it("takes a unit of the channel's limit for the contact before a template send", async () => {
      await sender(new FakeProvider()).sendMessage(channel, message, template);
      expect(engine.taken).toEqual([{ channelKey: 'ch1', contactKey: 'c1', limit: 1000 }]);
      expect(engine.released).toEqual([]);
    });

    it('answers MESSAGING_LIMIT_REACHED with the seconds until a unit frees when the ledger refuses, calling nobody', async () => {
      engine.unit = { ok: false, retryAfterMs: 90_200 };
      const provider = new FakeProvider();
      const error = await sender(provider).sendMessage(channel, message, broadcast).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CatalogError);
      expect(error).toMatchObject({ code: 'MESSAGING_LIMIT_REACHED', retryAfterSeconds: 91, providerCode: undefined });
      expect(provider.calls).toBe(0);
      expect([engine.reservations, engine.slots, engine.released]).toEqual([[], [], []]);

      engine.unit = { ok: false, retryAfterMs: 20 };
      await expect(sender(provider).sendMessage(channel, message, template)).rejects.toMatchObject({ code: 'MESSAGING_LIMIT_REACHED', retryAfterSeconds: 1 });
    });

    it('gives the unit back when the provider refused the send with a code', async () => {
      await expect(sender(new FakeProvider([refused('131026')])).sendMessage(channel, message, template)).rejects.toMatchObject({ providerCode: '131026' });
      expect(engine.released).toEqual([{ channelKey: 'ch1', contactKey: 'c1', token: '1700000000000' }]);
    });

    it('keeps the unit when the send failed without a provider answer (the call may have reached the provider)', async () => {
      await expect(sender(new FakeProvider([refused(null)])).sendMessage(channel, message, template)).rejects.toMatchObject({ code: 'SEND_FAILED', providerCode: null });
      expect(engine.released).toEqual([]);
    });

    it('gives back nothing when the contact was reached within the window (no new unit)', async () => {
      engine.unit = { ok: true, newUnit: false };
      await expect(sender(new FakeProvider([refused('131026')])).sendMessage(channel, message, template)).rejects.toMatchObject({ providerCode: '131026' });
      expect(engine.released).toEqual([]);
    });

    it('surfaces the provider refusal even when giving the unit back fails', async () => {
      engine.ledger.release = async () => Promise.reject(new Error('connect ECONNREFUSED'));
      await expect(sender(new FakeProvider([refused('131026')])).sendMessage(channel, message, template)).rejects.toMatchObject({ providerCode: '131026' });
    });
  });

  describe('the rate store unreachable', () => {
    it.each(['ledger', 'pairs', 'budget'] as const)('answers SERVICE_UNAVAILABLE without a provider code and calls nobody when the %s fails', async (part) => {
      engine.down = part;
      const provider = new FakeProvider();
      const error = await sender(provider).sendMessage(channel, message, broadcast).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CatalogError);
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', providerCode: undefined, cause: expect.objectContaining({ message: 'connect ECONNREFUSED 127.0.0.1:6379' }) });
      expect(provider.calls).toBe(0);
    });

    it('gives the unit taken back when a later part fails before the call', async () => {
      engine.down = 'budget';
      await expect(sender(new FakeProvider()).sendMessage(channel, message, template)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(engine.released).toEqual([{ channelKey: 'ch1', contactKey: 'c1', token: '1700000000000' }]);
    });

    it('answers the accepted send even when recording its acceptance fails', async () => {
      engine.down = 'backOff';
      await expect(sender(new FakeProvider()).sendMessage(channel, message, live)).resolves.toEqual({ provider_message_id: 'wamid.1' });
      expect(engine.accepted).toEqual(['ch1']);
    });

    it('answers SERVICE_UNAVAILABLE, calling no more, when the back-off cannot be recorded after a 130429', async () => {
      engine.down = 'backOff';
      const provider = new FakeProvider([refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, live)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(provider.calls).toBe(1);
    });

    it('lets a catalog error of a part through as it is', async () => {
      engine.budget.waitForSlots = async () => Promise.reject(new CatalogError('MESSAGING_LIMIT_REACHED', 'x', { retryAfterSeconds: 5 }));
      await expect(sender(new FakeProvider()).sendMessage(channel, message, live)).rejects.toMatchObject({ code: 'MESSAGING_LIMIT_REACHED', retryAfterSeconds: 5 });
    });
  });

  describe('the claim before the call', () => {
    /** Records when the claim came, among the engine's steps and the provider's calls. */
    const claimRecorder = (answer: boolean) => {
      const seen: string[] = [];
      const claim = {
        take: async (fenceId?: string) => {
          seen.push(`claim with ${fenceId} after ${engine.slots.length} slot(s), ${engine.reservations.length} pair reservation(s), ${engine.steps.filter((step) => step.startsWith('raise') || step.includes(' pass ')).length} fence step(s)`);
          engine.steps.push(`claim ${fenceId}`);
          return answer;
        },
      };
      return { seen, claim };
    };

    it('is made once, after the pair interval and before the first slot, not again for a call after a 130429', async () => {
      const { seen, claim } = claimRecorder(true);
      const provider = new FakeProvider([refused('130429')]);
      await expect(sender(provider).sendMessage(channel, message, broadcast, claim)).resolves.toEqual({ provider_message_id: 'wamid.2' });
      expect(seen).toEqual(['claim with fence-1 after 0 slot(s), 1 pair reservation(s), 1 fence step(s)']);
      expect(provider.calls).toBe(2);
    });

    it("raises the attempt's call fence before the claim, which records its id, and passes it right before the first call only, not again after a 130429", async () => {
      const { claim } = claimRecorder(true);
      const provider = new FakeProvider([refused('130429')]);
      const calls = provider.sendMessage.bind(provider);
      provider.sendMessage = async () => {
        engine.steps.push('call');
        return calls();
      };
      await sender(provider).sendMessage(channel, message, broadcast, claim);
      // A crash between the claim and the raise would leave a claim no recovery could prove uncalled.
      expect(engine.steps).toEqual(['raise ch1/fence-1', 'claim fence-1', 'slot s1', 'commit s1 pass ch1/fence-1', 'call', 'slot s2', 'commit s2', 'call']);
    });

    it('commits the slot it was granted, with the channel and broadcast it was asked for, right before each call', async () => {
      const { claim } = claimRecorder(true);
      await sender(new FakeProvider()).sendMessage(channel, message, broadcast, claim);
      expect(engine.commits).toEqual([{ channelKey: 'ch1', perSecond: 80, priority: 'broadcast', broadcastKey: 'bc1', broadcastPerSecond: 20, slotId: 's1', fenceId: 'fence-1' }]);
    });

    it('asks for another slot, calling nobody and keeping the fence up, when the commit finds no room for the slot it waited with', async () => {
      const { claim } = claimRecorder(true);
      engine.commitWaits = [300];
      const provider = new FakeProvider();
      const calls = provider.sendMessage.bind(provider);
      provider.sendMessage = async () => {
        engine.steps.push('call');
        return calls();
      };
      await expect(sender(provider).sendMessage(channel, message, live, claim)).resolves.toEqual({ provider_message_id: 'wamid.1' });
      expect(engine.steps).toEqual(['raise ch1/fence-1', 'claim fence-1', 'slot s1', 'commit s1 pass ch1/fence-1', 'slot s2', 'commit s2 pass ch1/fence-1', 'call']);
    });

    it('commits the slot again, without the fence, while the answer came back late (this process stalled), then calls', async () => {
      const { claim } = claimRecorder(true);
      engine.commitRoundTrips = [40, 25, 2];
      const provider = new FakeProvider();
      const calls = provider.sendMessage.bind(provider);
      provider.sendMessage = async () => {
        engine.steps.push('call');
        return calls();
      };
      await sender(provider).sendMessage(channel, message, live, claim);
      expect(engine.steps).toEqual(['raise ch1/fence-1', 'claim fence-1', 'slot s1', 'commit s1 pass ch1/fence-1', 'commit s1', 'commit s1', 'call']);
    });

    it('asks for a new slot when the late commit finds no room any more, and calls after it; stamps at most three times again', async () => {
      const { claim } = claimRecorder(true);
      engine.commitRoundTrips = [40, 1];
      engine.commitWaits = [];
      const provider = new FakeProvider();
      const calls = provider.sendMessage.bind(provider);
      provider.sendMessage = async () => {
        engine.steps.push('call');
        return calls();
      };
      const commit = engine.budget.commit;
      let commitsSeen = 0;
      engine.budget.commit = async (request) => ((commitsSeen += 1) === 2 ? (engine.steps.push(`commit ${request.slotId}`), { outcome: 'wait', retryInMs: 5 }) : commit(request));
      await sender(provider).sendMessage(channel, message, live, claim);
      expect(engine.steps).toEqual(['raise ch1/fence-1', 'claim fence-1', 'slot s1', 'commit s1 pass ch1/fence-1', 'commit s1', 'slot s2', 'commit s2', 'call']);

      engine.steps.length = 0;
      engine.commitRoundTrips = [50, 50, 50, 50, 50];
      await sender(provider).sendMessage(channel, message, live);
      expect(engine.steps).toEqual(['slot s3', 'commit s3', 'commit s3', 'commit s3', 'commit s3', 'call']);
    });

    it('commits a send without a claim too (no fence to pass)', async () => {
      await sender(new FakeProvider()).sendMessage(channel, message, live);
      expect(engine.steps).toEqual(['slot s1', 'commit s1']);
    });

    it('calls nobody and gives the unit back when a recovery took the fence down before the call (SendAlreadyClaimed)', async () => {
      const { claim } = claimRecorder(true);
      engine.fenceTakenDown = true;
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, template, claim)).rejects.toBeInstanceOf(SendAlreadyClaimed);
      expect(provider.calls).toBe(0);
      expect(engine.released).toHaveLength(1);
    });

    it('claims nothing and calls nobody when the fence cannot be raised (SERVICE_UNAVAILABLE)', async () => {
      const { seen, claim } = claimRecorder(true);
      engine.down = 'fences';
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, broadcast, claim)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', providerCode: undefined });
      expect([provider.calls, engine.slots.length, seen]).toEqual([0, 0, []]);
    });

    it('raises a fence of its own for each attempt: a second attempt of the same send never stands in for the first', async () => {
      const { seen, claim } = claimRecorder(false);
      const shared = sender(new FakeProvider());
      await expect(shared.sendMessage(channel, message, live, claim)).rejects.toBeInstanceOf(SendAlreadyClaimed);
      await expect(shared.sendMessage(channel, message, live, claim)).rejects.toBeInstanceOf(SendAlreadyClaimed);
      expect(seen.map((line) => line.split(' ')[2])).toEqual(['fence-1', 'fence-2']);
    });

    it('calls nobody when the fence cannot be passed (SERVICE_UNAVAILABLE: the caller forgets its claim)', async () => {
      const { claim } = claimRecorder(true);
      const provider = new FakeProvider();
      engine.budget.commit = async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      await expect(sender(provider).sendMessage(channel, message, live, claim)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', providerCode: undefined });
      expect(provider.calls).toBe(0);
    });

    it('stops the send, calling nobody and giving the unit back, when another attempt holds the claim', async () => {
      const { claim } = claimRecorder(false);
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, template, claim)).rejects.toBeInstanceOf(SendAlreadyClaimed);
      expect(provider.calls).toBe(0);
      expect(engine.released).toHaveLength(1);
    });

    it('is not made when the send is refused before its slot (a pair interval past the pacing wait)', async () => {
      const { seen, claim } = claimRecorder(true);
      engine.pairWaits = [20_000];
      await expect(sender(new FakeProvider()).sendMessage(channel, message, broadcast, claim)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(seen).toEqual([]);
    });

    it('comes before the call of a send without pacing too', async () => {
      const provider = new FakeProvider();
      await expect(sender(provider).sendMessage(channel, message, undefined, claimRecorder(false).claim)).rejects.toBeInstanceOf(SendAlreadyClaimed);
      expect([provider.calls, engine.steps]).toEqual([0, ['claim undefined']]);
    });
  });
});
