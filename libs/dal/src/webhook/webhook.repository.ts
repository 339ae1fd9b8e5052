import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TenantRepository } from '../shared/tenant-repository';
import type { WebhookEntity } from './webhook.entity';
import { WebhookModel } from './webhook.schema';

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: string[];
}

const endpointOf = (webhook: WebhookEntity): WebhookEndpoint => ({ id: webhook._id, url: webhook.url, secret: webhook.secret, events: [...webhook.events] });

/** Webhook endpoints of a business (seeded or added by the admin tool). */
export class WebhookRepository extends TenantRepository<WebhookEntity> {
  constructor() {
    super(WebhookModel);
  }

  /** Index { business_id }. */
  listOfBusiness(scope: BusinessScope): Promise<WebhookEntity[]> {
    return WebhookModel.find(scopedFilter(scope, {})).lean<WebhookEntity[]>().exec();
  }

  /** The endpoints as the dispatcher uses them; filtered by event by the caller (a business has a handful). */
  async list(scope: BusinessScope): Promise<WebhookEndpoint[]> {
    return (await this.listOfBusiness(scope)).map(endpointOf);
  }

  /** By { business_id, _id } (TenantRepository.findById). */
  async find(scope: BusinessScope, id: string): Promise<WebhookEndpoint | null> {
    const webhook = await this.findById(scope, id);
    return webhook ? endpointOf(webhook) : null;
  }
}
