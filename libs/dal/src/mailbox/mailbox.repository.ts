import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { NamedTenantRepository } from '../shared/tenant-repository';
import type { MailboxEntity } from './mailbox.entity';
import { MailboxModel } from './mailbox.schema';

export class MailboxRepository extends NamedTenantRepository<MailboxEntity> {
  constructor() {
    super(MailboxModel);
  }

  /** The category's first mailbox by name. */
  findFirstOfCategory(scope: BusinessScope, categoryId: string): Promise<MailboxEntity | null> {
    return MailboxModel.findOne(scopedFilter(scope, { category_id: categoryId })).sort({ name_key: 1, name: 1, _id: 1 }).lean<MailboxEntity>().exec();
  }
}
