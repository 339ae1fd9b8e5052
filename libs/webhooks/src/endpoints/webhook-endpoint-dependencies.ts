import type { BusinessRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from '@cmsg/dal';
import type { EventFanOut } from '../fan-out/event-fan-out';
import type { Clock, PageCursorCodec } from '../ports';
import type { WebhookUrlPolicy } from '../url-policy/webhook-url-policy';

/** What the endpoint use cases need; the conversations service wires the real ones. */
export interface WebhookEndpointDependencies {
  endpoints: WebhookEndpointRepository;
  deliveries: WebhookDeliveryRepository;
  businesses: Pick<BusinessRepository, 'findById'>;
  fanOut: EventFanOut;
  urlPolicy: WebhookUrlPolicy;
  cursors: PageCursorCodec;
  clock: Clock;
}
