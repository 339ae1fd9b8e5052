import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TenantRepository } from '../shared/tenant-repository';
import type { WebhookEntity } from './webhook.entity';
import { WebhookModel } from './webhook.schema';

/** Webhook endpoints of a business (seeded or added by the admin tool). */
export class WebhookRepository extends TenantRepository<WebhookEntity> {
  constructor() {
    super(WebhookModel);
  }

  listOfBusiness(scope: BusinessScope): Promise<WebhookEntity[]> {
    return WebhookModel.find(scopedFilter(scope, {})).lean<WebhookEntity[]>().exec();
  }
}
