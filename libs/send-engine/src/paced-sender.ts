import { randomUUID } from 'node:crypto';
import type { ChannelCredentials, OutboundMessage, SendMessageResult } from '@cmsg/chat-platform';
import { CatalogError, isCatalogError } from '@cmsg/errors';
import { cmsgMetrics } from '@cmsg/platform';
import { type ChannelBackOff, DEFAULT_BACK_OFF_MAX_MS } from './channel-back-off';
import type { ChannelRateBudget, SlotCommitRequest, SlotCommitted } from './channel-rate-budget';
import type { MessagingLimitLedger, MessagingUnitTaken } from './messaging-limit-ledger';
import type { LiveFirstGate } from './live-first-gate';
import type { PairPacer } from './pair-pacer';
import type { SendCallFence } from './send-call-fence';
import { SlotWaitExpired, type WaitForSlotsOptions } from './wait-for-slots';

/** The provider call itself: the Cloud API client without its own rate-limit retries. */
export interface ProviderSender {
  sendMessage(channel: ChannelCredentials, message: OutboundMessage): Promise<SendMessageResult>;
}

/** What a send is paced by (the conversations service's SendPacing). */
export interface SendPacing {
  businessId: string;
  channelId: string;
  maxMessagesPerSecond: number;
  messagingLimit: number | null;
  contactId: string;
  isTemplate: boolean;
  broadcast?: { uuid: string; maxPerSecond: number };
}

export interface SendEngineParts {
  /** Process-local: live sends ahead of broadcast sends when the stack itself is the bottleneck. */
  gate?: Pick<LiveFirstGate, 'live' | 'admitBroadcast' | 'releaseBroadcast'>;
  budget: {
    waitForSlots(request: Parameters<ChannelRateBudget['waitForSlots']>[0], options?: WaitForSlotsOptions): ReturnType<ChannelRateBudget['waitForSlots']>;
    commit: ChannelRateBudget['commit'];
  };
  backOff: Pick<ChannelBackOff, 'recordThrottled' | 'recordAccepted'>;
  pairs: Pick<PairPacer, 'reserve'>;
  ledger: Pick<MessagingLimitLedger, 'take' | 'release'>;
  /** Raised before the claim; passed by the budget's commit of the send's slot, right before its call. */
  fences: Pick<SendCallFence, 'raise'>;
}

export interface PacedSenderOptions {
  /** SEND_PAIR_INTERVAL_MS: the least time between two broadcast sends to one contact on a channel. */
  pairIntervalMs: number;
  /** Calls of one send answered 130429 before it fails (each after the channel's back-off). */
  throttleAttempts: number;
  /** Calls of one send answered 131056, each after `pairRetryMs`. */
  pairRateAttempts: number;
  pairRetryMs: number;
  /**
   * The longest one send waits in all for the engine (pair interval, its slot, back-offs) before its
   * calls: past it the send fails instead (SERVICE_UNAVAILABLE before any call, else the provider's
   * last 130429), so that a send never outlives its lease (sendLeaseMs).
   */
  pacingWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /**
   * Asked once a broadcast send has its slot, right before the call: throws (a catalog error) when
   * the broadcast stopped running meanwhile, so a pause or cancel holds the sends already waiting.
   */
  admitBroadcastSend?: (pacing: SendPacing) => Promise<void>;
  /** The provider answered 131048 (spam rate limit): every running broadcast of the channel pauses (CONTRACT 10.5). */
  onSpamRateLimit?: (pacing: SendPacing) => Promise<void>;
  /** A fresh id for each attempt's call fence (randomUUID). */
  newFenceId?: () => string;
  /**
   * A commit whose answer took longer than this (its process's event loop stalled) is made again
   * before the call, so its stamp is when the call leaves (default 10 ms, under the budget's 25 ms
   * margin); at most `restampAttempts` (default 3) times.
   */
  lateCommitMs?: number;
  restampAttempts?: number;
  /** A monotonic clock in ms for the commit's round trip (performance.now). */
  monotonicNow?: () => number;
}

export const DEFAULT_PACED_SENDER_OPTIONS: PacedSenderOptions = { pairIntervalMs: 6_000, throttleAttempts: 5, pairRateAttempts: 3, pairRetryMs: 6_000, pacingWaitMs: 45_000 };

/** The engine's options for a pair interval (SEND_PAIR_INTERVAL_MS): a send waits at most the longest back-off, the pair interval and a few slots. */
export function pacedSenderOptionsFor(pairIntervalMs: number): PacedSenderOptions {
  return { ...DEFAULT_PACED_SENDER_OPTIONS, pairIntervalMs, pacingWaitMs: DEFAULT_BACK_OFF_MAX_MS + pairIntervalMs + 7_000 };
}

/**
 * How long a send through the engine takes at most: its pacing waits, every call up to its timeout,
 * the waits between 131056 retries; plus a margin. A message still `sending` after this was cut
 * off by a crash (OutboundMessageStore.settle, the broadcast coordinator's stale claims).
 */
export function sendLeaseMs(callTimeoutMs: number, options: Pick<PacedSenderOptions, 'throttleAttempts' | 'pairRateAttempts' | 'pairRetryMs' | 'pacingWaitMs'>, marginMs = 15_000): number {
  const calls = options.throttleAttempts + options.pairRateAttempts - 1;
  return options.pacingWaitMs + calls * callTimeoutMs + (options.pairRateAttempts - 1) * options.pairRetryMs + marginMs;
}

/**
 * The caller's claim of a send (its message recorded `sending`), taken after the send's messaging
 * unit, pair interval and turn, just before its rate slot and first provider call: a process that
 * dies while the send waits for those leaves nothing cut off. Right before it the attempt's call
 * fence goes up (SendCallFence), and the claim records the fence's id, so that a recovery can tell
 * a send cut off before its call from one cut off during it, whenever the cut came.
 */
export interface ClaimBeforeCall {
  /**
   * Stores the claim with the id of this attempt's call fence (already raised; none for a send
   * without pacing). False when another attempt of the same send holds the claim: then nothing is
   * called (SendAlreadyClaimed).
   */
  take(fenceId?: string): Promise<boolean>;
}

/** Another attempt of the same send holds its claim, or a recovery took it over: this one called nothing. */
export class SendAlreadyClaimed extends Error {
  constructor() {
    super('Another attempt of this send holds its claim; nothing was called.');
  }
}

const THROUGHPUT_LIMIT = '130429';
const PAIR_RATE_LIMIT = '131056';
const SPAM_RATE_LIMIT = '131048';

/**
 * The send engine of CONTRACT 10.5 in front of the provider (docs/broadcasts.md): the messaging
 * limit for templates, the pair rate, one Redis rate budget per channel shared by every replica
 * with live sends ahead of broadcast sends, the channel's back-off on 130429 and the retry on
 * 131056. Everything else the provider answers is the caller's to handle.
 */
export class PacedSender {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly newFenceId: () => string;
  private readonly monotonicNow: () => number;
  private readonly lateCommitMs: number;
  private readonly restampAttempts: number;

  constructor(
    private readonly provider: ProviderSender,
    private readonly engine: SendEngineParts,
    private readonly options: PacedSenderOptions = DEFAULT_PACED_SENDER_OPTIONS,
  ) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.newFenceId = options.newFenceId ?? randomUUID;
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
    this.lateCommitMs = options.lateCommitMs ?? 10;
    this.restampAttempts = options.restampAttempts ?? 3;
  }

  async sendMessage(channel: ChannelCredentials, message: OutboundMessage, pacing?: SendPacing, claim?: ClaimBeforeCall): Promise<SendMessageResult> {
    if (!pacing) {
      if (claim && !(await claim.take())) throw new SendAlreadyClaimed();
      return this.provider.sendMessage(channel, message);
    }
    const waitUntil = this.now() + this.options.pacingWaitMs;
    const unit = pacing.isTemplate ? await beforeAnyCall(() => this.takeUnit(pacing)) : undefined;
    try {
      await beforeAnyCall(() => this.keepPairRate(pacing, waitUntil));
      return await this.inTurn(pacing, waitUntil, () => this.callWithinBudget(channel, message, pacing, waitUntil, claim));
    } catch (error) {
      // A send the provider refused (or that never left) reached nobody: its unit is given back.
      if (unit?.ok && unit.newUnit && !(isCatalogError(error) && error.code === 'SEND_FAILED' && error.providerCode === null)) {
        await this.engine.ledger.release({ channelKey: pacing.channelId, contactKey: pacing.contactId, token: unit.token }).catch(() => false);
      }
      throw error;
    }
  }

  /** Live sends run at once (and hold broadcasts back); a broadcast send waits for its turn at the gate. */
  private async inTurn<T>(pacing: SendPacing, waitUntil: number, call: () => Promise<T>): Promise<T> {
    const { gate } = this.engine;
    if (!gate) return call();
    if (!pacing.broadcast) return gate.live(call);
    if (!(await gate.admitBroadcast(waitUntil))) throw this.waitedTooLong();
    try {
      return await call();
    } finally {
      gate.releaseBroadcast();
    }
  }

  /** The slot's commit (a step before any call) and how long its answer took to come back. */
  private async commitTimed(request: Omit<SlotCommitRequest, 'slotId'> & { slotId: string | undefined }): Promise<SlotCommitted & { tookMs: number }> {
    const asked = this.monotonicNow();
    const committed = await beforeAnyCall(async () => {
      const { slotId } = request;
      if (slotId === undefined) throw new Error('send engine: a slot granted without its id');
      return this.engine.budget.commit({ ...request, slotId });
    });
    return { ...committed, tookMs: this.monotonicNow() - asked };
  }

  private waitedTooLong(): CatalogError {
    const seconds = Math.round(this.options.pacingWaitMs / 1000);
    return new CatalogError('SERVICE_UNAVAILABLE', `The channel had no free slot for this send within ${seconds} s (its rate, or a back-off after the provider's 130429); nothing was sent, retry later.`);
  }

  private async takeUnit(pacing: SendPacing): Promise<MessagingUnitTaken> {
    const unit = await this.engine.ledger.take({ channelKey: pacing.channelId, contactKey: pacing.contactId, limit: pacing.messagingLimit });
    if (!unit.ok) {
      const seconds = Math.max(1, Math.ceil(unit.retryAfterMs / 1000));
      throw new CatalogError('MESSAGING_LIMIT_REACHED', `The channel reached its messaging limit of ${pacing.messagingLimit} contacts in 24 hours; a unit frees in ${seconds} s.`, {
        retryAfterSeconds: seconds,
      });
    }
    return unit;
  }

  /** Broadcast sends wait out the pair interval; live sends only record theirs (a reply of three parts is not held 12 s). */
  private async keepPairRate(pacing: SendPacing, waitUntil: number): Promise<void> {
    const reservation = { channelKey: pacing.channelId, contactKey: pacing.contactId, intervalMs: this.options.pairIntervalMs };
    if (!pacing.broadcast) {
      await this.engine.pairs.reserve({ ...reservation, mode: 'record' });
      return;
    }
    for (;;) {
      const { retryInMs } = await this.engine.pairs.reserve({ ...reservation, mode: 'wait' });
      if (retryInMs <= 0) return;
      if (this.now() + retryInMs > waitUntil) throw this.waitedTooLong();
      await this.sleep(retryInMs);
    }
  }

  private async callWithinBudget(channel: ChannelCredentials, message: OutboundMessage, pacing: SendPacing, waitUntil: number, claim: ClaimBeforeCall | undefined): Promise<SendMessageResult> {
    // Claimed before the slot, not between the slot and the call. The call fence goes up before the
    // claim (a crash between the two leaves a fence of no claim, which expires) and is passed by the
    // slot's commit, the last step before the first call.
    let fenceId: string | undefined;
    if (claim) {
      const attemptFence = this.newFenceId();
      await beforeAnyCall(() => this.engine.fences.raise({ channelKey: pacing.channelId, fenceId: attemptFence }));
      if (!(await claim.take(attemptFence))) throw new SendAlreadyClaimed();
      fenceId = attemptFence;
    }
    let throttled = 0;
    let pairLimited = 0;
    let lastThrottle: unknown;
    for (;;) {
      const slot = {
        channelKey: pacing.channelId,
        perSecond: pacing.maxMessagesPerSecond,
        priority: pacing.broadcast ? ('broadcast' as const) : ('live' as const),
        ...(pacing.broadcast && pacing.broadcast.maxPerSecond > 0 ? { broadcastKey: pacing.broadcast.uuid, broadcastPerSecond: pacing.broadcast.maxPerSecond } : {}),
      };
      const { waitedMs, slotId } = await beforeAnyCall(() =>
        this.engine.budget.waitForSlots(slot, { until: waitUntil }).catch((error: unknown) => {
          // Out of time: a send the provider already throttled fails with that answer, others never left.
          if (error instanceof SlotWaitExpired) throw lastThrottle ?? this.waitedTooLong();
          throw error;
        }),
      );
      cmsgMetrics.sendSlotWait(slot.priority, waitedMs / 1000);
      if (pacing.broadcast) await beforeAnyCall(async () => this.options.admitBroadcastSend?.(pacing));
      let committed = await this.commitTimed({ ...slot, slotId, ...(fenceId !== undefined ? { fenceId } : {}) });
      // Gone: a recovery took the send over (this process was taken for stopped); it calls nothing.
      if (committed.outcome === 'fence-gone') throw new SendAlreadyClaimed();
      // The slot waited past its window (or a back-off began): another one, before any call.
      if (committed.outcome === 'wait') continue;
      // Later calls of this send (after a 130429) follow a call already made.
      fenceId = undefined;
      // Stamped by Redis, answered late: the call would leave long after its stamp, into the
      // provider's next second beside the calls stamped there. Stamped again, it counts where it lands.
      for (let restamps = 0; committed.outcome === 'call' && committed.tookMs > this.lateCommitMs && restamps < this.restampAttempts; restamps += 1) {
        cmsgMetrics.sendCommitRestamped(slot.priority);
        committed = await this.commitTimed({ ...slot, slotId });
      }
      if (committed.outcome !== 'call') continue;
      try {
        const result = await this.provider.sendMessage(channel, message);
        // What a later 130429 learns the provider's rate from; never the send's concern.
        this.engine.backOff.recordAccepted(pacing.channelId).catch(() => undefined);
        return result;
      } catch (error) {
        const code = isCatalogError(error) ? error.providerCode : undefined;
        if (code === THROUGHPUT_LIMIT && ++throttled < this.options.throttleAttempts) {
          // The budget refuses every replica's slots until the back-off ends, then grants what the provider took.
          lastThrottle = error;
          await beforeAnyCall(() => this.engine.backOff.recordThrottled(pacing.channelId));
          continue;
        }
        if (code === PAIR_RATE_LIMIT && ++pairLimited < this.options.pairRateAttempts) {
          await this.sleep(this.options.pairRetryMs);
          continue;
        }
        if (code === SPAM_RATE_LIMIT) await this.options.onSpamRateLimit?.(pacing).catch(() => undefined);
        throw error;
      }
    }
  }
}

/**
 * A step of the engine before the provider call: a catalog error passes (MESSAGING_LIMIT_REACHED),
 * anything else (Redis unreachable) becomes SERVICE_UNAVAILABLE without a provider code, which the
 * send use case reads as "nothing was sent" (the message is not kept, a retry may send it).
 */
async function beforeAnyCall<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isCatalogError(error)) throw error;
    throw new CatalogError('SERVICE_UNAVAILABLE', 'The send engine could not reach its rate store (Redis); nothing was sent, retry later.', { cause: error });
  }
}
