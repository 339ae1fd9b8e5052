import type { BusinessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import { operationMessageId } from '../conversation/operation-ids';
import { OutboundMessageStore } from './outbound-message-store';

export type SendOutcome =
  | { kind: 'absent' }
  | { kind: 'in_flight' }
  | { kind: 'sent'; message_id: string; sent_at: Date }
  | { kind: 'failed'; message_id: string; error: { code: string; message: string; provider_code: string | null } };

/**
 * How an operation's send ended, from its first message: absent (the provider was never called),
 * still in flight within its lease, sent, or failed. A send in flight past its lease was cut off by
 * a crash: it is settled as failed with no provider answer (SEND_FAILED, provider_code null), never
 * sent again. Used by the broadcast coordinator for a recipient whose sender went away.
 */
export async function sendOutcomeOf(scope: BusinessScope, operationId: string, dependencies: { outbox: OutboxRecorder; inFlightLeaseMs: number; realNow?: () => number }): Promise<SendOutcome> {
  const realNow = dependencies.realNow ?? Date.now;
  const store = new OutboundMessageStore(scope, dependencies.outbox, dependencies.inFlightLeaseMs, realNow);
  let message = await store.find(operationMessageId(scope.businessId, operationId, 0));
  if (!message) return { kind: 'absent' };
  if (message.status === 'sending') {
    const leaseEnd = (message.sending_started_at?.getTime() ?? 0) + dependencies.inFlightLeaseMs;
    if (leaseEnd > realNow()) return { kind: 'in_flight' };
    message = await store.settle(message);
  }
  if (message.status === 'failed') {
    const error = message.error ?? { code: 'SEND_FAILED', message: 'The send failed.', provider_code: null };
    return { kind: 'failed', message_id: message._id, error: { code: error.code ?? 'SEND_FAILED', message: error.message ?? 'The send failed.', provider_code: error.provider_code ?? null } };
  }
  return { kind: 'sent', message_id: message._id, sent_at: message.sending_started_at ?? message.created_at };
}
