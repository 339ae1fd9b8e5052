import { businessScope } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import type { Clock } from '../ports';
import type { LeasedDelivery, WebhookDeliveryRepository, WebhookRepository } from '@cmsg/dal';
import { type WebhookRetryPolicy, nextWebhookAttemptAt } from './webhook-retry';
import { WEBHOOK_SIGNATURE_HEADER, signWebhookBody } from './webhook-signature';

/** How a delivery attempt reaches the receiver (the app wires fetch in). Resolves with the HTTP status. */
export interface WebhookTransport {
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number>;
}

export interface WebhookDispatcherOptions {
  retry: WebhookRetryPolicy;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Sleep when nothing is due. */
  idleMs: number;
  /** Longest one attempt may take (the lease is a little longer). */
  attemptTimeoutMs: number;
}

/**
 * Sends pending webhook deliveries: claim one due delivery (a lease), sign, POST, record; at least
 * once, with exponential back-off for 24 h, then `abandoned`. Runs beside the command stream, never in it.
 */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookRepository,
    private readonly transport: WebhookTransport,
    private readonly clock: Clock,
    private readonly logger: Logger,
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
    this.wake?.();
    await this.loop;
  }

  /** One delivery, if one is due; answers whether there was one. */
  async dispatchOne(): Promise<boolean> {
    const [leased] = await this.lease(1);
    if (!leased) return false;
    await this.attempt(leased);
    return true;
  }

  /**
   * One poll for all free slots (a single query while idle), attempts run concurrently, and a
   * finished attempt frees its slot at once: a slow receiver does not hold up the others.
   */
  private async run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (this.running) {
      const free = this.options.concurrency - inFlight.size;
      let leased: LeasedDelivery[] = [];
      if (free > 0) {
        try {
          leased = await this.lease(free);
        } catch (error) {
          this.logger.warn({ err: error }, 'webhook lease pass failed');
        }
      }
      for (const lease of leased) {
        const attempt: Promise<void> = this.attempt(lease)
          .catch((error: unknown) => this.logger.warn({ err: error, delivery_id: lease.delivery._id }, 'webhook attempt could not be recorded'))
          .finally(() => {
            inFlight.delete(attempt);
            this.wake?.();
          });
        inFlight.add(attempt);
      }
      // Nothing more due, or every slot busy: wait for the poll interval or a freed slot.
      if (this.running && (leased.length < free || inFlight.size >= this.options.concurrency)) await this.idle();
    }
    await Promise.all(inFlight);
  }

  private lease(max: number): Promise<LeasedDelivery[]> {
    return this.deliveries.claimDueOfAnyBusiness(this.clock.now(), this.options.attemptTimeoutMs + 5_000, max);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.idleMs);
      this.wake = done;
    });
  }

  private async attempt(leased: LeasedDelivery): Promise<void> {
    const { delivery } = leased;
    const endpoint = await this.endpoints.find(businessScope(delivery.business_id), delivery.webhook_id);
    if (!endpoint) {
      await this.deliveries.markFailed(leased, { attempts: delivery.attempts, nextAttemptAt: null, httpStatus: null, error: 'the webhook endpoint was removed' });
      return;
    }
    const now = this.clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'cmsg-webhooks/1',
      [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(endpoint.secret, delivery.body, now.getTime() / 1000),
      'X-Webhook-Id': delivery.event_id,
    };
    let httpStatus: number | null = null;
    let problem: string;
    try {
      httpStatus = await this.transport.post(endpoint.url, delivery.body, headers, this.options.attemptTimeoutMs);
      if (httpStatus >= 200 && httpStatus < 300) {
        await this.deliveries.markDelivered(leased, this.clock.now(), httpStatus);
        return;
      }
      problem = `HTTP ${httpStatus}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const attempts = delivery.attempts + 1;
    const nextAttemptAt = nextWebhookAttemptAt(attempts, delivery.created_at, this.clock.now(), this.options.retry);
    await this.deliveries.markFailed(leased, { attempts, nextAttemptAt, httpStatus, error: problem });
    const log = { delivery_id: delivery._id, event_id: delivery.event_id, url: endpoint.url, attempts, problem };
    if (nextAttemptAt) this.logger.info({ ...log, next_attempt_at: nextAttemptAt }, 'webhook attempt failed; will retry');
    else this.logger.warn(log, 'webhook delivery abandoned after 24 h of retries');
  }
}
