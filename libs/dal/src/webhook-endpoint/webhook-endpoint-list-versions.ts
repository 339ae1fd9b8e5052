import { randomUUID } from 'node:crypto';
import type { BusinessScope } from '../shared/business-scope';

/**
 * The version of a business's webhook endpoint list: a value that changes whenever the list may
 * have changed (an endpoint created, changed, deleted, disabled, seeded), read by every process
 * that keeps the list in memory to know whether its copy is still the list (docs/webhooks.md,
 * Endpoint list cache). Every write of `WebhookEndpointRepository` that changes what the fan-out
 * reads bumps it, so no writer can forget.
 */
export interface WebhookEndpointListVersions {
  /** A new version of the business's list; throws when it cannot be made (the write must not be answered as done). */
  bump(scope: BusinessScope): Promise<void>;
  /** The current version; throws when it cannot be read (the reader then reads the list itself). */
  current(scope: BusinessScope): Promise<string>;
}

/**
 * The versions of a database that this process alone reads and writes (unit specs, a benchmark on
 * a throwaway database): kept in memory, so another process never sees them.
 */
export class InProcessWebhookEndpointListVersions implements WebhookEndpointListVersions {
  private readonly versions = new Map<string, string>();

  async bump(scope: BusinessScope): Promise<void> {
    this.versions.set(scope.businessId, randomUUID());
  }

  async current(scope: BusinessScope): Promise<string> {
    let version = this.versions.get(scope.businessId);
    if (version === undefined) {
      version = randomUUID();
      this.versions.set(scope.businessId, version);
    }
    return version;
  }
}
