import { BusinessModel, type BusinessScope, PaymentModel, scopedFilter } from '@cmsg/dal';
import type { PaymentMarkerSource, PaymentProfile, PaymentValues } from './payment-markers';

type StoredPayment = Omit<PaymentValues, 'uuid'> & { _id: string };

const PAYMENT_FIELDS = { link: 1, amount: 1, currency: 1, reference: 1, due_date: 1 } as const;

/**
 * Marker values of one conversation. A payment uuid only resolves within the conversation: a
 * marker must never put another customer's payment link in front of this one.
 */
export function paymentMarkerSource(scope: BusinessScope, conversationId: string): PaymentMarkerSource {
  return {
    latestOpenPayment: async () =>
      toValues(
        await PaymentModel.findOne(scopedFilter(scope, { conversation_id: conversationId, status: 'open' }), PAYMENT_FIELDS)
          .sort({ created_at: -1, _id: -1 })
          .lean<StoredPayment>(),
      ),
    paymentByUuid: async (uuid) =>
      toValues(await PaymentModel.findOne(scopedFilter(scope, { _id: uuid, conversation_id: conversationId }), PAYMENT_FIELDS).lean<StoredPayment>()),
    paymentProfile: async () => {
      const business = await BusinessModel.findById(scope.businessId, { payment_profile: 1 }).lean<{ payment_profile?: PaymentProfile | null }>();
      return business?.payment_profile ?? null;
    },
  };
}

function toValues(payment: StoredPayment | null): PaymentValues | null {
  if (!payment) return null;
  return {
    uuid: payment._id,
    link: payment.link ?? null,
    amount: payment.amount ?? null,
    currency: payment.currency ?? null,
    reference: payment.reference ?? null,
    due_date: payment.due_date ?? null,
  };
}
