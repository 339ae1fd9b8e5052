import type { Server } from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import type { Logger } from '../logger';

/** How often the dependency check runs; Check answers and Watch streams follow its result. */
const HEALTH_POLL_MS = 2_000;

/**
 * The standard grpc.health.v1.Health service (grpc-health-check: Check and Watch): the whole
 * server ('') and each of its services are SERVING while the dependency check passes, NOT_SERVING
 * otherwise and from the moment the server starts draining. Every server it is added to (the main
 * port, the plaintext health port) answers from the same statuses.
 */
export class ServiceHealth {
  private readonly health: HealthImplementation;
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private current: ServingStatus = 'NOT_SERVING';

  constructor(
    private readonly serviceNames: readonly string[],
    private readonly isHealthy: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {
    this.health = new HealthImplementation(Object.fromEntries(['', ...serviceNames].map((name) => [name, 'NOT_SERVING' as const])));
  }

  addTo(server: Server): void {
    this.health.addToServer(server);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), HEALTH_POLL_MS);
    this.timer.unref();
  }

  /** First step of the drain: load balancers and probes stop sending new calls. */
  stopServing(): void {
    this.draining = true;
    clearInterval(this.timer);
    this.set('NOT_SERVING');
  }

  private async refresh(): Promise<void> {
    const healthy = await this.isHealthy().catch(() => false);
    if (!this.draining) this.set(healthy ? 'SERVING' : 'NOT_SERVING');
  }

  private set(status: ServingStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.logger.info({ health: status }, 'gRPC health changed');
    for (const name of ['', ...this.serviceNames]) this.health.setStatus(name, status);
  }
}
