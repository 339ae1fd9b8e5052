import { NamedTenantRepository } from '../shared/tenant-repository';
import type { QuickReplyEntity } from './quick-reply.entity';
import { QuickReplyModel } from './quick-reply.schema';

export class QuickReplyRepository extends NamedTenantRepository<QuickReplyEntity> {
  constructor() {
    super(QuickReplyModel);
  }
}
