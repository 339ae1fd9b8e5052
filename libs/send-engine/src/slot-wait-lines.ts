import { type SlotGrant, type SlotRequest, SlotWaitExpired, type SlotsWaited, type WaitForSlotsOptions, waitForSlots } from './wait-for-slots';

/**
 * The broadcast sends of one process that wait for the same slots (one channel, one broadcast's own
 * rate) stand in one line, and only the first asks the budget: without it every waiting send asked
 * again each time a slot freed (all were told the same moment), so at a channel's 80 a second the
 * tens of sends a process holds made thousands of Redis calls a second for 80 grants, and took the
 * CPU the sends needed. A line forms when the budget refuses a send and lasts while sends wait in
 * it; without one, sends ask at once and side by side, so a budget with room adds no wait. Live
 * sends never stand in line (they register as waiting live sends in the budget, which holds the
 * next slot for them).
 */
export class SlotWaitLines {
  private readonly lines = new Map<string, Turn[]>();

  constructor(private readonly acquire: (request: SlotRequest) => Promise<SlotGrant>) {}

  async waitForSlots(request: Omit<SlotRequest, 'waiterId'>, options: WaitForSlotsOptions = {}): Promise<SlotsWaited> {
    if (request.priority === 'live') return waitForSlots(this.acquire, request, options);
    const startedAt = Date.now();
    const key = lineKey(request);
    // No line: the budget has not refused these slots lately, so the send asks at once, beside the
    // others (a line formed for every ask would make the sends of a budget with room ask in turn).
    let refused: SlotGrant | undefined;
    if (!this.lines.has(key)) {
      const grant = await this.acquire(request);
      if (grant.granted >= 1) return { ...grant, waitedMs: Date.now() - startedAt };
      refused = grant;
    }
    const line = this.lines.get(key) ?? [];
    this.lines.set(key, line);
    const turn = new Turn();
    line.push(turn);
    try {
      if (line[0] !== turn) {
        await turn.comes(options);
        refused = undefined;
      }
      // First in line after its own refusal: waits what that refusal said before asking again.
      const acquire = (attempt: SlotRequest): Promise<SlotGrant> => {
        const answered = refused;
        refused = undefined;
        return answered ? Promise.resolve(answered) : this.acquire(attempt);
      };
      const waited = await waitForSlots(acquire, request, options);
      return { ...waited, waitedMs: Date.now() - startedAt };
    } catch (error) {
      if (error instanceof SlotWaitExpired) throw new SlotWaitExpired(Date.now() - startedAt);
      throw error;
    } finally {
      this.leave(key, line, turn);
    }
  }

  /** How many sends of this process stand in line for these slots (tests). */
  waiting(request: Pick<SlotRequest, 'channelKey' | 'broadcastKey'>): number {
    return this.lines.get(lineKey(request))?.length ?? 0;
  }

  private leave(key: string, line: Turn[], turn: Turn): void {
    const wasFirst = line[0] === turn;
    line.splice(line.indexOf(turn), 1);
    if (line.length === 0) {
      if (this.lines.get(key) === line) this.lines.delete(key);
      return;
    }
    if (wasFirst) line[0]!.begin();
  }
}

function lineKey({ channelKey, broadcastKey }: Pick<SlotRequest, 'channelKey' | 'broadcastKey'>): string {
  return `${channelKey}\u0000${broadcastKey ?? ''}`;
}

/** A place in a line: resolved when it is first, or given up at the waiter's `until` or abort. */
class Turn {
  private resolve: (() => void) | undefined;

  begin(): void {
    this.resolve?.();
  }

  /** Called right after the place is taken, before any turn can pass to it. */
  comes({ until, signal }: WaitForSlotsOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => finish(() => reject(signal?.reason));
      const finish = (settle: () => void) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.resolve = undefined;
        settle();
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (until !== undefined) timer = setTimeout(() => finish(() => reject(new SlotWaitExpired(0))), Math.max(0, until - Date.now()));
      this.resolve = () => finish(resolve);
    });
  }
}
