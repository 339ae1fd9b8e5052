import { AsyncResource } from 'node:async_hooks';

export interface FiringLoopOptions {
  /** Pause between passes; a pass that found a full batch is followed by another at once. */
  intervalMs: number;
  /**
   * Schedules fall due on whole multiples of this (whole minutes): a pass also runs at each one, so
   * what falls due there is found at once rather than up to an interval later.
   */
  dueEveryMs: number;
  onError(error: unknown): void;
}

/**
 * The firer's timer: runs one pass at a time, forever, until stopped. A wake (the tester clock
 * moved) runs a pass now, or right after the one under way.
 */
export class FiringLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeRequested = false;
  private stopped = true;
  /** Passes run outside any request's context, even when a request woke them (logs, request ids). */
  private readonly scheduleOutsideRequests = AsyncResource.bind((delayMs: number) => this.schedule(delayMs));

  constructor(
    private readonly pass: () => Promise<{ full: boolean }>,
    private readonly options: FiringLoopOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.scheduleOutsideRequests(0);
  }

  /** Stops the timer and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private untilNextPass(nowMs: number): number {
    return Math.min(this.options.intervalMs, this.options.dueEveryMs - (nowMs % this.options.dueEveryMs));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      let again = false;
      this.running = this.pass()
        .then((result) => {
          again = result.full;
        })
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => {
          this.running = undefined;
          again ||= this.wakeRequested;
          this.wakeRequested = false;
          this.schedule(again ? 0 : this.untilNextPass(Date.now()));
        });
    }, delayMs);
  }
}
