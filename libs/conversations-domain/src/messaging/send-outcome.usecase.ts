import type { BusinessScope } from '@cmsg/dal';
import { operationMessageId } from '../conversation/operation-ids';
import { OutboundMessageStore, type OutboundStorePorts } from './outbound-message-store';

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
export async function sendOutcomeOf(ports: OutboundStorePorts, scope: BusinessScope, operationId: string, realNow?: () => number): Promise<SendOutcome> {
  const store = new OutboundMessageStore(scope, ports, realNow);
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
