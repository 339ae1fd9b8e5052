import { WebhookDeliveryRepository, WebhookEndpointRepository } from '@cmsg/dal';
import { type FanOutEvent, cachedWebhookFanOut, systemClock } from '@cmsg/webhooks';
import type { StackDescription } from './local-stack';
import { stackEndpointListVersions } from './stack-endpoint-list-versions';

/**
 * Fans recorded events out to the webhook endpoints of their business through the connection this
 * process opened, as the event recorder does (endpoint lists cached under their versions in the
 * stack's Redis): for specs that drive the delivering process directly.
 */
export async function webhookFanOut(stack: Pick<StackDescription, 'env'>): Promise<{ fanOut(event: FanOutEvent): Promise<number> }> {
  const versions = await stackEndpointListVersions(stack);
  return cachedWebhookFanOut({ endpoints: new WebhookEndpointRepository(versions), versions, deliveries: new WebhookDeliveryRepository(), clock: systemClock });
}

export type { FanOutEvent };
