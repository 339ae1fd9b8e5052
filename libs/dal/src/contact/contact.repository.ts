import type { BusinessScope } from '../shared/business-scope';
import type { ContactEntity } from './contact.entity';
import { ContactModel } from './contact.schema';

export class ContactRepository {
  async insert(scope: BusinessScope, contact: Omit<ContactEntity, 'business_id'> & { _id: string }): Promise<void> {
    await ContactModel.create({ ...contact, business_id: scope.businessId });
  }
}
