import { randomUUID } from 'node:crypto';

export type SendPriority = 'live' | 'broadcast';

export interface SlotRequest {
  channelKey: string;
  /** The channel's max_messages_per_second. */
  perSecond: number;
  priority: SendPriority;
  /** Slots wanted at once (broadcast batches); default 1. */
  count?: number;
  /** With broadcastPerSecond: the broadcast's own max_per_second log. */
  broadcastKey?: string;
  broadcastPerSecond?: number;
  /** A live request that finds the window full registers under this id, so broadcasts yield to it. */
  waiterId?: string;
}

export interface SlotGrant {
  granted: number;
  /** When nothing was granted: how long until asking again makes sense. */
  retryInMs: number;
  /** When something was: the grant's time on the budget's clock (Redis ms), the clock its windows are kept on. */
  grantedAtMs?: number;
  /** When something was: names the grant, for ChannelRateBudget.commit. */
  slotId?: string;
}

export interface WaitForSlotsOptions {
  signal?: AbortSignal;
  /** Date.now() after which no slot is wanted any more: waitForSlots throws SlotWaitExpired rather than wait past it. */
  until?: number;
  /** Tests replace the timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** No slot was granted before the caller's `until`. */
export class SlotWaitExpired extends Error {
  constructor(readonly waitedMs: number) {
    super(`no slot of the channel's rate budget within ${waitedMs} ms`);
    this.name = 'SlotWaitExpired';
  }
}

export interface SlotsWaited {
  granted: number;
  waitedMs: number;
  grantedAtMs?: number;
  slotId?: string;
}

/**
 * Asks until at least one slot is granted, sleeping as long as the budget says; a live request
 * keeps one waiter id for all its attempts so the budget holds the next slot for it.
 */
export async function waitForSlots(
  acquire: (request: SlotRequest) => Promise<SlotGrant>,
  request: Omit<SlotRequest, 'waiterId'>,
  { signal, until, sleep = sleepFor }: WaitForSlotsOptions = {},
): Promise<SlotsWaited> {
  const attempt: SlotRequest = request.priority === 'live' ? { ...request, waiterId: randomUUID() } : request;
  const startedAt = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    const { granted, retryInMs, grantedAtMs, slotId } = await acquire(attempt);
    if (granted >= 1) return { granted, waitedMs: Date.now() - startedAt, ...(grantedAtMs !== undefined ? { grantedAtMs } : {}), ...(slotId !== undefined ? { slotId } : {}) };
    const waitMs = Math.max(1, retryInMs);
    if (until !== undefined && Date.now() + waitMs > until) throw new SlotWaitExpired(Date.now() - startedAt);
    await sleep(waitMs, signal);
  }
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
