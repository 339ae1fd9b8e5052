import { WebhookDeliveryRepository, WebhookEndpointRepository } from '@cmsg/dal';
import { CachedEndpointDirectory, type FanOutEvent, WebhookFanOut, systemClock } from '@cmsg/webhooks';
import type { StackDescription } from './local-stack';
import { stackEndpointListVersions } from './stack-endpoint-list-versions';

/**
 * Fans recorded events out to the webhook endpoints of their business through the connection this
 * process opened, as the event recorder does (endpoint lists cached under their versions in the
 * stack's Redis): for specs that drive the delivering process directly.
 */
export async function webhookFanOut(stack: Pick<StackDescription, 'env'>): Promise<{ fanOut(event: FanOutEvent): Promise<number> }> {
  const versions = await stackEndpointListVersions(stack);
  const endpoints = new WebhookEndpointRepository(versions);
  return new WebhookFanOut({ directory: new CachedEndpointDirectory(endpoints, versions), endpoints, deliveries: new WebhookDeliveryRepository(), clock: systemClock });
}

export type { FanOutEvent };
