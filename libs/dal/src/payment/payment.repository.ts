import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TenantRepository } from '../shared/tenant-repository';
import type { PaymentEntity } from './payment.entity';
import { PaymentModel } from './payment.schema';

export class PaymentRepository extends TenantRepository<PaymentEntity> {
  constructor() {
    super(PaymentModel);
  }

  findLatestOpenOfConversation(scope: BusinessScope, conversationId: string): Promise<PaymentEntity | null> {
    return PaymentModel.findOne(scopedFilter(scope, { conversation_id: conversationId, status: 'open' })).sort({ created_at: -1, _id: -1 }).lean<PaymentEntity>().exec();
  }
}
