import type { BusinessScope } from '@cmsg/dal';
import type { InboxStatusResponse } from '@cmsg/proto';
import { resolveConversation } from '../conversation/conversation-resolver';
import { type InboxStatusPorts, setInboxStatus } from '../inbox/set-inbox-status.usecase';

export const DEFAULT_ESCALATION_REASON = 'action_set_failed';

/**
 * Escalate (SPEC 3.1, 4.3 rule 6): the conversation goes to pending with the given reason, by the
 * system. Already pending: no change, no broadcast, and the earlier pending_reason stays.
 */
export async function escalate(ports: InboxStatusPorts, scope: BusinessScope, conversationUuid: string, pendingReason: string): Promise<InboxStatusResponse> {
  const conversation = await resolveConversation(ports.lookup, scope, { uuid: conversationUuid });
  return setInboxStatus(ports, scope, conversation, {
    target: 'pending',
    pendingReason: pendingReason || DEFAULT_ESCALATION_REASON,
    actor: { type: 'system', uuid: null },
  });
}
