import type { Server } from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import type { Logger } from '../logger';

/** The health service name under which the conversations service answers for its MongoDB (the gateway's /readyz names it). */
export const MONGODB_HEALTH_SERVICE = 'mongodb';

/** How often the dependency check runs; Check answers and Watch streams follow its result. */
const HEALTH_POLL_MS = 2_000;

/**
 * The standard grpc.health.v1.Health service (grpc-health-check: Check and Watch): the whole
 * server ('') and each of its services are SERVING once the service's background work has started
 * (markStarted: its Kafka consumers hold their partitions, so a stack that is ready runs its first
 * commands at once) and while the dependency check passes, NOT_SERVING before, otherwise, and from
 * the moment the server starts draining. Each named dependency check (e.g.
 * 'mongodb') answers for itself under its own service name, so a caller can say what is down. Every
 * server it is added to (the main port, the plaintext health port) answers from the same statuses.
 */
export class ServiceHealth {
  private readonly health: HealthImplementation;
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private started = false;
  private current: ServingStatus = 'NOT_SERVING';

  constructor(
    private readonly serviceNames: readonly string[],
    private readonly isHealthy: () => Promise<boolean>,
    private readonly logger: Logger,
    private readonly dependencyChecks: Record<string, () => Promise<boolean>> = {},
  ) {
    const names = ['', ...serviceNames, ...Object.keys(dependencyChecks)];
    this.health = new HealthImplementation(Object.fromEntries(names.map((name) => [name, 'NOT_SERVING' as const])));
  }

  addTo(server: Server): void {
    this.health.addToServer(server);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), HEALTH_POLL_MS);
    this.timer.unref();
  }

  /** The service's background work (consumers joined to their groups) is running: it may answer SERVING. */
  async markStarted(): Promise<void> {
    this.started = true;
    await this.refresh();
  }

  /** What Check answers for the whole server (''). */
  status(): ServingStatus {
    return this.current;
  }

  /** First step of the drain: load balancers and probes stop sending new calls. */
  stopServing(): void {
    this.draining = true;
    clearInterval(this.timer);
    this.set('NOT_SERVING');
  }

  private async refresh(): Promise<void> {
    const [healthy, dependencies] = await Promise.all([
      this.isHealthy().catch(() => false),
      Promise.all(Object.entries(this.dependencyChecks).map(async ([name, check]) => [name, await check().catch(() => false)] as const)),
    ]);
    if (this.draining) return;
    this.set(healthy && this.started ? 'SERVING' : 'NOT_SERVING');
    for (const [name, up] of dependencies) this.health.setStatus(name, up ? 'SERVING' : 'NOT_SERVING');
  }

  private set(status: ServingStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.logger.info({ health: status }, 'gRPC health changed');
    for (const name of ['', ...this.serviceNames]) this.health.setStatus(name, status);
  }
}
