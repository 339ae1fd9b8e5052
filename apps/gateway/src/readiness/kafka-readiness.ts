import type { Admin } from 'kafkajs';
import type { ReadinessCheck } from './readiness-check';

interface CachedResult {
  at: number;
  error: unknown;
}

/**
 * Kafka is reachable when an admin client connects and describes the cluster. Probes arrive every
 * few seconds from every kubelet; the answer is cached so they do not each open a connection.
 */
export class KafkaReadinessCheck implements ReadinessCheck {
  readonly name = 'kafka';
  private cached: CachedResult | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly createAdmin: () => Pick<Admin, 'connect' | 'describeCluster' | 'disconnect'>,
    private readonly cacheMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  async check(): Promise<void> {
    if (this.cached && this.now() - this.cached.at < this.cacheMs) {
      if (this.cached.error !== undefined) throw this.cached.error;
      return;
    }
    this.running ??= this.describeCluster().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Lets an in-flight check finish before the process exits. */
  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async describeCluster(): Promise<void> {
    const admin = this.createAdmin();
    try {
      await admin.connect();
      await admin.describeCluster();
      this.cached = { at: this.now(), error: undefined };
    } catch (error) {
      this.cached = { at: this.now(), error };
      throw error;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
