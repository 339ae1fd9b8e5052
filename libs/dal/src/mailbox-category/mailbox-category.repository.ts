import { NamedTenantRepository } from '../shared/tenant-repository';
import type { MailboxCategoryEntity } from './mailbox-category.entity';
import { MailboxCategoryModel } from './mailbox-category.schema';

export class MailboxCategoryRepository extends NamedTenantRepository<MailboxCategoryEntity> {
  constructor() {
    super(MailboxCategoryModel);
  }
}
