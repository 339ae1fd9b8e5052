/** How to end each server or app this process started and has not stopped yet. */
const leftovers = new Set<() => void>();

/** Registers how to end a process this one started; the answer forgets it (call it once stopped). */
export function trackLeftoverProcess(end: () => void): () => void {
  leftovers.add(end);
  return () => leftovers.delete(end);
}

/**
 * Ends, at once and synchronously, every app and server this process started and has not stopped:
 * for a benchmark stopped by a signal, whose stacks would otherwise go on running and load the
 * machine the next measurement runs on.
 */
export function killLeftoverProcesses(): void {
  for (const end of [...leftovers]) {
    try {
      end();
    } catch {
      // Already gone.
    }
  }
  leftovers.clear();
}
