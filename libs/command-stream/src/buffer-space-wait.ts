export interface BufferSpaceWaitOptions {
  isFull: () => boolean;
  isRunning: () => boolean;
  /** Resolves when a command may have left the buffer, or after timeoutMs. */
  nextWake: (timeoutMs: number) => Promise<void>;
  /** kafkajs' eachBatch heartbeat; it rejects when the group is rebalancing. */
  heartbeat: () => Promise<void>;
  intervalMs: number;
  now?: () => number;
}

export type BufferSpaceWaitResult = { outcome: 'space' } | { outcome: 'stopped' } | { outcome: 'heartbeat_failed'; error: unknown };

/**
 * Backpressure for the fetch loop: waits while the buffer is full. The loop is held inside
 * eachBatch, where kafkajs sends no heartbeats of its own, so this one heartbeats every intervalMs
 * however long the wait (and however often completions wake it) or the session would time out.
 */
export async function waitForBufferSpace(options: BufferSpaceWaitOptions): Promise<BufferSpaceWaitResult> {
  const now = options.now ?? Date.now;
  let heartbeatDue = now() + options.intervalMs;
  while (options.isFull() && options.isRunning()) {
    await options.nextWake(Math.max(0, heartbeatDue - now()));
    if (now() < heartbeatDue || !options.isFull() || !options.isRunning()) continue;
    try {
      await options.heartbeat();
    } catch (error) {
      return { outcome: 'heartbeat_failed', error };
    }
    heartbeatDue = now() + options.intervalMs;
  }
  return options.isRunning() ? { outcome: 'space' } : { outcome: 'stopped' };
}
