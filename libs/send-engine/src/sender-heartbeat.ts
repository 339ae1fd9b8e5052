import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@cmsg/platform/redis';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';

export interface SenderHeartbeatOptions extends SendEngineKeyOptions {
  /** A process whose heartbeat is older than this is taken for stopped. */
  ttlMs?: number;
  /** How often a running process renews its heartbeat. */
  intervalMs?: number;
  /** A renewal that failed (the next one tries again). */
  onError?: (error: unknown) => void;
}

export const DEFAULT_SENDER_HEARTBEAT = { ttlMs: 10_000, intervalMs: 2_000 };

/**
 * Which sending processes are running: each renews a key of its own that expires after ttlMs, so a
 * send left `sending` by a process that stopped (kill -9, a lost machine) is known to be cut off
 * seconds later instead of at the end of its lease (docs/broadcasts.md, "Exactly once"). Not
 * knowing (Redis unreachable) counts as running: the lease decides then.
 */
export class SenderHeartbeat {
  /** This process, new at every start: a restarted process is another one. */
  readonly processId = randomUUID();
  private readonly keys: SendEngineKeys;
  private readonly ttlMs: number;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: SenderHeartbeatOptions = {},
  ) {
    this.keys = new SendEngineKeys(options.keyPrefix);
    this.ttlMs = options.ttlMs ?? DEFAULT_SENDER_HEARTBEAT.ttlMs;
    this.intervalMs = options.intervalMs ?? DEFAULT_SENDER_HEARTBEAT.intervalMs;
  }

  /** Beats once (awaited: no send starts before this process is known running), then every intervalMs. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch((error: unknown) => this.options.onError?.(error)), this.intervalMs);
    this.timer.unref();
  }

  /** After the last send of this process settled (a drained shutdown): its heartbeat goes at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.redis.del(this.keys.senderHeartbeat(this.processId));
  }

  async isRunning(processId: string): Promise<boolean> {
    if (processId === this.processId) return true;
    try {
      return (await this.redis.exists(this.keys.senderHeartbeat(processId))) === 1;
    } catch {
      return true;
    }
  }

  private async beat(): Promise<void> {
    await this.redis.set(this.keys.senderHeartbeat(this.processId), '1', { PX: this.ttlMs });
  }
}
