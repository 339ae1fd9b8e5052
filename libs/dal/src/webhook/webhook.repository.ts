import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { WebhookModel } from './webhook.schema';

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: string[];
}

/** Webhook endpoints of a business (seeded or added by the admin CLI). */
export class WebhookEndpointRepository {
  /** Index { business_id }. Filtered by event by the caller: a business has a handful of endpoints. */
  async list(scope: BusinessScope): Promise<WebhookEndpoint[]> {
    const endpoints = await WebhookModel.find(scopedFilter(scope, {})).lean();
    return endpoints.map((endpoint) => ({ id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] }));
  }

  /** By _id (the business key is in the filter too; MongoDB serves it from the _id index). */
  async find(scope: BusinessScope, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = await WebhookModel.findOne(scopedFilter(scope, { _id: id })).lean();
    return endpoint ? { id: endpoint._id, url: endpoint.url, secret: endpoint.secret, events: [...endpoint.events] } : null;
  }
}
