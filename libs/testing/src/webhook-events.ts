import { WebhookDeliveryRepository, WebhookEndpointRepository } from '@cmsg/dal';
import { type FanOutEvent, WebhookFanOut, systemClock } from '@cmsg/webhooks';

/**
 * Fans recorded events out to the webhook endpoints of their business through the connection this
 * process opened, as the event recorder does: for specs that drive the delivering process directly.
 */
export function webhookFanOut(): { fanOut(event: FanOutEvent): Promise<number> } {
  return new WebhookFanOut(new WebhookEndpointRepository(), new WebhookDeliveryRepository(), systemClock);
}

export type { FanOutEvent };
