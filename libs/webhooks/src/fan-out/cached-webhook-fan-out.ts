import type { WebhookEndpointListVersions, WebhookEndpointRepository } from '@cmsg/dal';
import { CachedEndpointDirectory } from './cached-endpoint-directory';
import { WebhookFanOut, type WebhookFanOutDependencies } from './event-fan-out';

export interface CachedWebhookFanOutPorts extends Omit<WebhookFanOutDependencies, 'directory' | 'endpoints'> {
  endpoints: Pick<WebhookEndpointRepository, 'listFanOutTargets' | 'findById'>;
  versions: Pick<WebhookEndpointListVersions, 'current'>;
}

/** The fan-out as a process runs it: each business's endpoint list kept under its version (docs/webhooks.md, Endpoint list cache). */
export function cachedWebhookFanOut({ endpoints, versions, ...rest }: CachedWebhookFanOutPorts): WebhookFanOut {
  return new WebhookFanOut({ directory: new CachedEndpointDirectory(endpoints, versions), endpoints, ...rest });
}
