import { randomUUID } from 'node:crypto';
import { type AttemptOutcome, type ClaimedDelivery, type WebhookDeliveryRepository, type WebhookEndpointEntity, type WebhookEndpointRepository, businessScope } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import type { Clock } from '../ports';
import { deliveryHeaders } from '../signing/delivery-headers';
import { liveSecrets } from '../signing/webhook-secret';
import { type WebhookRetryPolicy, nextWebhookAttemptAt } from './retry-schedule';
import type { WebhookTransport } from './webhook-transport';

export interface WebhookDispatcherOptions {
  retry: WebhookRetryPolicy;
  /** Attempts in flight at once in this dispatcher, all endpoints together. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint in this dispatcher. */
  endpointConcurrency: number;
  /** Poll interval while nothing is due. */
  idleMs: number;
  /** Longest one attempt may take (CONTRACT 9.2: 10 s); the claim's lease is a little longer. */
  attemptTimeoutMs: number;
  /** An endpoint that failed every attempt for this long is disabled (CONTRACT 9.2: 3 days). */
  disableAfterMs: number;
}

export interface WebhookDispatcherDependencies {
  deliveries: Pick<WebhookDeliveryRepository, 'findDueInAnyBusiness' | 'claimInAnyBusiness' | 'recordOutcomesInAnyBusiness' | 'abandonInAnyBusiness' | 'failPendingOfEndpoint'>;
  endpoints: Pick<WebhookEndpointRepository, 'findByIdsInAnyBusiness' | 'markFailingInAnyBusiness' | 'markSucceedingInAnyBusiness' | 'disableIfFailingSince'>;
  transport: WebhookTransport;
  clock: Clock;
  logger: Logger;
}

/** Margin of a claim's lease beyond the attempt's own timeout. */
const LEASE_MARGIN_MS = 5_000;
/**
 * Passes start at most this often when attempts finish one after another: each pass is one due
 * query, so a busy dispatcher claims what finished attempts made room for in batches, not one by one.
 */
const MIN_PASS_INTERVAL_MS = 20;
/** Outcomes are written together: at most this many in one bulk write, at most this long after the attempt. */
const OUTCOME_BATCH = { size: 200, delayMs: 10 } as const;

interface PendingOutcome {
  claimed: ClaimedDelivery;
  outcome: AttemptOutcome;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Sends queued webhook deliveries, at least once. Each pass reads the due deliveries of the
 * endpoints that still have room in this dispatcher (one endpoint's cap reached: its deliveries are
 * left out of the query, so a slow or dead receiver never holds back another endpoint or business),
 * claims a batch with one conditional bulk update and a read, and starts the attempts; a finished
 * attempt frees its slot and wakes the loop. Claims are leases: a dispatcher that dies mid-attempt
 * leaves its deliveries due again when the lease ends. Runs beside the command stream, never in it.
 */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeRequested = false;
  private lastPassAt = 0;
  private outcomes: PendingOutcome[] = [];
  private outcomeTimer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightByEndpoint = new Map<string, number>();

  constructor(
    private readonly dependencies: WebhookDispatcherDependencies,
    private readonly options: WebhookDispatcherOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Lets attempts in flight finish (each is bounded by attemptTimeoutMs). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Something may be due now (a delivery was queued in this process, an attempt finished): a pass soon, at most one per MIN_PASS_INTERVAL_MS. */
  wake(): void {
    this.wakeRequested = true;
    if (!this.wakeUp || this.wakeTimer) return;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.wakeUp?.();
      },
      Math.max(0, this.lastPassAt + MIN_PASS_INTERVAL_MS - Date.now()),
    );
  }

  /** One pass: claims what is due and has room, starts those attempts; answers how many started. */
  async dispatchDue(): Promise<{ started: number; more: boolean }> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return { started: 0, more: false };
    const now = this.dependencies.clock.now();
    const busy = [...this.inFlightByEndpoint].filter(([, count]) => count >= this.options.endpointConcurrency).map(([endpointId]) => endpointId);
    const due = await this.dependencies.deliveries.findDueInAnyBusiness(now, busy, free);
    const room = new Map<string, number>();
    const chosen = due.filter((delivery) => {
      const left = room.get(delivery.endpoint_id) ?? this.options.endpointConcurrency - (this.inFlightByEndpoint.get(delivery.endpoint_id) ?? 0);
      room.set(delivery.endpoint_id, left - 1);
      return left > 0;
    });
    const leaseUntil = new Date(now.getTime() + this.options.attemptTimeoutMs + LEASE_MARGIN_MS);
    const claimed = await this.dependencies.deliveries.claimInAnyBusiness(chosen, randomUUID(), leaseUntil);
    if (claimed.length > 0) {
      const endpoints = new Map((await this.dependencies.endpoints.findByIdsInAnyBusiness(claimed.map((entry) => entry.delivery.endpoint_id))).map((endpoint) => [endpoint._id, endpoint]));
      for (const entry of claimed) this.track(entry, endpoints.get(entry.delivery.endpoint_id) ?? null);
    }
    // A full page: more may be due right away.
    return { started: claimed.length, more: due.length === free };
  }

  /** Resolves once no attempt is in flight (tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let more = false;
      this.wakeRequested = false;
      this.lastPassAt = Date.now();
      try {
        ({ more } = await this.dispatchDue());
      } catch (error) {
        this.dependencies.logger.warn({ err: error }, 'webhook claim pass failed');
      }
      if (this.running && (!more || this.inFlight.size >= this.options.concurrency)) await this.idle();
    }
    await this.settled();
  }

  private track(claimed: ClaimedDelivery, endpoint: WebhookEndpointEntity | null): void {
    const endpointId = claimed.delivery.endpoint_id;
    this.inFlightByEndpoint.set(endpointId, (this.inFlightByEndpoint.get(endpointId) ?? 0) + 1);
    const attempt: Promise<void> = this.attempt(claimed, endpoint)
      .catch((error: unknown) => this.dependencies.logger.warn({ err: error, delivery_id: claimed.delivery._id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        this.inFlight.delete(attempt);
        const left = (this.inFlightByEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.inFlightByEndpoint.set(endpointId, left);
        else this.inFlightByEndpoint.delete(endpointId);
        this.wake();
      });
    this.inFlight.add(attempt);
  }

  /** Until idleMs passed or a wake (one asked for during the last pass included). */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.idleMs);
      this.wakeUp = done;
      if (this.wakeRequested) this.wake();
    });
  }

  /** Queues an outcome for the next bulk write; resolves once it is written. */
  private recordOutcome(claimed: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ claimed, outcome, resolve, reject });
      if (this.outcomes.length >= OUTCOME_BATCH.size) void this.flushOutcomes();
      else this.outcomeTimer ??= setTimeout(() => void this.flushOutcomes(), OUTCOME_BATCH.delayMs);
    });
  }

  private async flushOutcomes(): Promise<void> {
    clearTimeout(this.outcomeTimer);
    this.outcomeTimer = undefined;
    const batch = this.outcomes;
    this.outcomes = [];
    try {
      await this.dependencies.deliveries.recordOutcomesInAnyBusiness(batch);
      for (const entry of batch) entry.resolve();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }

  private async attempt(claimed: ClaimedDelivery, endpoint: WebhookEndpointEntity | null): Promise<void> {
    const { deliveries, transport, clock, logger } = this.dependencies;
    const { delivery } = claimed;
    if (!endpoint || !endpoint.enabled) {
      await deliveries.abandonInAnyBusiness(claimed, endpoint ? 'the webhook endpoint is disabled' : 'the webhook endpoint was deleted');
      return;
    }
    const secrets = liveSecrets(endpoint.secrets, clock.now()).map((entry) => entry.secret);
    let statusCode: number | null = null;
    let problem: string;
    try {
      statusCode = await transport.post(endpoint.url, delivery.body, deliveryHeaders(delivery.event_id, delivery.body, secrets, clock.now()), this.options.attemptTimeoutMs);
      if (statusCode >= 200 && statusCode < 300) {
        await this.recordOutcome(claimed, { at: clock.now(), statusCode, error: null, nextAttemptAt: null });
        if (endpoint.failing_since) await this.dependencies.endpoints.markSucceedingInAnyBusiness(endpoint._id);
        return;
      }
      problem = `HTTP ${statusCode}`;
    } catch (error) {
      problem = describeFailure(error, this.options.attemptTimeoutMs);
    }
    const at = clock.now();
    const nextAttemptAt = nextWebhookAttemptAt(delivery.attempts + 1, delivery.retry_until, at, this.options.retry);
    await this.recordOutcome(claimed, { at, statusCode, error: problem, nextAttemptAt });
    const log = { delivery_id: delivery._id, event_id: delivery.event_id, endpoint_id: endpoint._id, attempts: delivery.attempts + 1, problem };
    if (nextAttemptAt) logger.info({ ...log, next_attempt_at: nextAttemptAt }, 'webhook attempt failed; will retry');
    else logger.warn(log, 'webhook delivery failed after 24 h of retries');
    await this.noteFailure(endpoint, at);
  }

  /** Starts the endpoint's failing streak, or disables it once the streak is long enough. */
  private async noteFailure(endpoint: WebhookEndpointEntity, at: Date): Promise<void> {
    const { endpoints, deliveries, logger } = this.dependencies;
    if (!endpoint.failing_since) {
      await endpoints.markFailingInAnyBusiness(endpoint._id, at);
      return;
    }
    if (at.getTime() - endpoint.failing_since.getTime() < this.options.disableAfterMs) return;
    const scope = businessScope(endpoint.business_id);
    if (await endpoints.disableIfFailingSince(scope, endpoint._id, new Date(at.getTime() - this.options.disableAfterMs), at)) {
      const stopped = await deliveries.failPendingOfEndpoint(scope, endpoint._id, 'the webhook endpoint was disabled after failing every delivery');
      logger.warn({ endpoint_id: endpoint._id, business_id: endpoint.business_id, failing_since: endpoint.failing_since, stopped_deliveries: stopped }, 'webhook endpoint disabled: every delivery failed');
    }
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = error as { name?: string; message?: string; code?: string } | null;
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  return failure?.message ?? String(error);
}
