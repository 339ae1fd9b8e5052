import type { BusinessScope } from '@cmsg/dal';
import type { InboxStatusResponse } from '@cmsg/proto';
import type { OutboxRecorder } from '@cmsg/events';
import { resolveConversation } from '../conversation/resolve-conversation-reference';
import { setInboxStatus } from '../inbox/set-inbox-status.usecase';
import { repositories } from '../repositories';

export const DEFAULT_ESCALATION_REASON = 'action_set_failed';

/**
 * Escalate (SPEC 3.1, 4.3 rule 6): the conversation goes to pending with the given reason, by the
 * system. Already pending: no change, no broadcast, and the earlier pending_reason stays.
 */
export async function escalate(scope: BusinessScope, outbox: OutboxRecorder, conversationUuid: string, pendingReason: string): Promise<InboxStatusResponse> {
  const conversation = await resolveConversation(scope, { uuid: conversationUuid });
  return setInboxStatus({ lookup: repositories, inboxStatus: repositories.conversations, outbox, clock: () => new Date() }, scope, conversation, {
    target: 'pending',
    pendingReason: pendingReason || DEFAULT_ESCALATION_REASON,
    actor: { type: 'system', uuid: null },
  });
}
