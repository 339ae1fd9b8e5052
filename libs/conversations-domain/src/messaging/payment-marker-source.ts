import type { BusinessScope, PaymentEntity } from '@cmsg/dal';
import type { MessageContentSources } from './send-message-ports';
import type { PaymentMarkerSource, PaymentProfile, PaymentValues } from './payment-markers';

/**
 * Marker values of one conversation. A payment uuid only resolves within the conversation: a
 * marker must never put another customer's payment link in front of this one.
 */
export function paymentMarkerSource(sources: Pick<MessageContentSources, 'payments' | 'businesses'>, scope: BusinessScope, conversationId: string): PaymentMarkerSource {
  return {
    latestOpenPayment: async () => toValues(await sources.payments.findLatestOpenOfConversation(scope, conversationId)),
    paymentByUuid: async (uuid) => {
      const payment = await sources.payments.findById(scope, uuid);
      return toValues(payment?.conversation_id === conversationId ? payment : null);
    },
    paymentProfile: async () => ((await sources.businesses.findById(scope))?.payment_profile as PaymentProfile | null | undefined) ?? null,
  };
}

function toValues(payment: PaymentEntity | null): PaymentValues | null {
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
