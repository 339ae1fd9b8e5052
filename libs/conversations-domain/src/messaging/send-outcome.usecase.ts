import type { BusinessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import { operationMessageId } from '../conversation/operation-ids';
import { OutboundMessageStore } from './outbound-message-store';
import type { SendLease } from './send-lease';

export type SendOutcome =
  | { kind: 'absent' }
  | { kind: 'in_flight' }
  | { kind: 'sent'; message_id: string; sent_at: Date }
  | { kind: 'failed'; message_id: string; error: { code: string; message: string; provider_code: string | null } };

/**
 * How an operation's send ended, from its first message: absent (the provider was never called),
 * still in flight, sent, or failed. A send cut off by a crash (its process stopped, or its lease is
 * over) before its provider call is forgotten (absent); cut off later, it is settled as failed with
 * no provider answer (SEND_FAILED, provider_code null), never sent again. Used by the broadcast
 * coordinator for a recipient whose sender went away.
 */
export async function sendOutcomeOf(scope: BusinessScope, operationId: string, dependencies: { outbox: OutboxRecorder; lease: SendLease; realNow?: () => number }): Promise<SendOutcome> {
  const store = new OutboundMessageStore(scope, dependencies.outbox, dependencies.lease, dependencies.realNow);
  let message = await store.find(operationMessageId(scope.businessId, operationId, 0));
  if (!message) return { kind: 'absent' };
  if (message.status === 'sending') {
    if (!(await store.isCutOff(message))) return { kind: 'in_flight' };
    message = await store.settle(message);
    if (!message) return { kind: 'absent' };
  }
  if (message.status === 'failed') {
    const error = message.error ?? { code: 'SEND_FAILED', message: 'The send failed.', provider_code: null };
    return { kind: 'failed', message_id: message._id, error: { code: error.code ?? 'SEND_FAILED', message: error.message ?? 'The send failed.', provider_code: error.provider_code ?? null } };
  }
  return { kind: 'sent', message_id: message._id, sent_at: message.sending_started_at ?? message.created_at };
}
