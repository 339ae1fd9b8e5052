/**
 * The wall-clock budget of one provider call, retries included: aborts when the time runs out or
 * when the caller cancels, and remembers which of the two happened.
 */
export class RunBudget {
  readonly signal: AbortSignal;
  private readonly overrunController = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly ms: number,
    callerSignal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.overrunController.abort(new Error(`budget of ${ms} ms exceeded`)), ms);
    this.signal = callerSignal ? AbortSignal.any([this.overrunController.signal, callerSignal]) : this.overrunController.signal;
  }

  get overrun(): boolean {
    return this.overrunController.signal.aborted;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
