/** How many broadcast sends a process lets through at once, with and without live work around. */
export interface LiveFirstGateOptions {
  /** Broadcast sends past the gate at once while no live work was seen for `liveQuietMs`. */
  broadcastsAlone: number;
  /** ... and while live work is in flight or was seen within `liveQuietMs`. */
  broadcastsBesideLive: number;
  liveQuietMs: number;
  now?: () => number;
}

export const DEFAULT_LIVE_FIRST_GATE: LiveFirstGateOptions = { broadcastsAlone: 64, broadcastsBesideLive: 1, liveQuietMs: 2_000 };

/**
 * Live work ahead of broadcast work inside one process. The channel budget orders slots, but when
 * the stack itself is what limits (CPU, MongoDB), a broadcast's in-flight sends would delay a live
 * send queued behind them by seconds: while live work is around, broadcast sends pass this gate one
 * at a time, and the runners' in-flight limit then stops new broadcast work from piling up.
 */
export class LiveFirstGate {
  private broadcasts = 0;
  private liveInFlight = 0;
  private lastLiveAt = Number.NEGATIVE_INFINITY;
  private waiting: Array<() => void> = [];
  private readonly now: () => number;

  constructor(private readonly options: LiveFirstGateOptions = DEFAULT_LIVE_FIRST_GATE) {
    this.now = options.now ?? Date.now;
  }

  /** Notes live work (a live send, an action) without holding anything. */
  noteLive(): void {
    this.lastLiveAt = this.now();
  }

  /** Runs live work; broadcasts beyond broadcastsBesideLive wait until it and liveQuietMs are over. */
  async live<T>(work: () => Promise<T>): Promise<T> {
    this.liveInFlight += 1;
    this.noteLive();
    try {
      return await work();
    } finally {
      this.liveInFlight -= 1;
      this.noteLive();
      this.wake();
    }
  }

  /**
   * Waits for a broadcast send's turn, at most until `until` (Date.now()): false when the turn did
   * not come by then. A true answer holds a place until `release`.
   */
  async admitBroadcast(until: number): Promise<boolean> {
    for (;;) {
      if (this.broadcasts < this.limit()) {
        this.broadcasts += 1;
        return true;
      }
      const left = until - this.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, Math.min(left, this.quietLeft() || left));
        this.waiting.push(() => {
          clearTimeout(timeout);
          resolve();
        });
      });
    }
  }

  releaseBroadcast(): void {
    this.broadcasts -= 1;
    this.wake();
  }

  private limit(): number {
    return this.liveInFlight > 0 || this.quietLeft() > 0 ? this.options.broadcastsBesideLive : this.options.broadcastsAlone;
  }

  private quietLeft(): number {
    return Math.max(0, this.lastLiveAt + this.options.liveQuietMs - this.now());
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
