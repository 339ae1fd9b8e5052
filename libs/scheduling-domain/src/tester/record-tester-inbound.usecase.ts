import { createAiRunCommand } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { type OutboxRecorder, customerAuthor, customerNameOf, messageTimelineItem, outboxEntry, withSequence } from '@cmsg/events';
import { currentRequestId } from '@cmsg/platform';
import type { Caller, ConversationReference, TesterInbound } from '@cmsg/proto';
import { cancelSchedulesOnCustomerReply } from '../manage/cancel-schedules-on-customer-reply';
import type { Clock, ConversationCommandPublisher, ConversationContextPort, ConversationStore, IdGenerator, MessageStore, ScheduleStore } from '../ports';

export interface RecordTesterInboundDependencies {
  conversationContext: ConversationContextPort;
  conversations: Pick<ConversationStore, 'findById' | 'applyInboundMessage' | 'showLastMessage'>;
  messages: Pick<MessageStore, 'insert'>;
  schedules: Pick<ScheduleStore, 'pendingOfConversation' | 'cancelPending'>;
  publisher: ConversationCommandPublisher;
  events: OutboxRecorder;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * CONTRACT 6: the customer of a tester conversation writes, at the virtual now. The message opens
 * the window and updates the conversation like a real inbound message (with its message.received
 * event); schedules created with
 * cancel_on_customer_reply are cancelled; an assigned AI replies unless the conversation is
 * pending, through the conversation's command stream like any background work.
 */
export async function recordTesterInbound(
  scope: BusinessScope,
  caller: Caller,
  reference: ConversationReference,
  text: string,
  dependencies: RecordTesterInboundDependencies,
): Promise<TesterInbound> {
  const { conversations, messages, ids } = dependencies;
  const context = await dependencies.conversationContext.getConversationContext({ caller, conversation: reference });
  if (!context.is_tester) throw new CatalogError('NOT_A_TESTER_CONVERSATION', 'Simulated customer messages go to tester conversations only.');
  const virtualNow = new Date(context.now);
  const realNow = dependencies.clock.now();
  const message = {
    _id: ids.newId(),
    conversation_id: context.uuid,
    is_from_customer: true,
    body: text,
    content_type: 'text',
    status: 'received',
    is_simulated: true,
    created_at: virtualNow,
  };
  await messages.insert(scope, message);
  const contactName = customerNameOf((await conversations.findById(scope, context.uuid))?.contact);
  const author = customerAuthor(context.contact_uuid, contactName);
  const event = outboxEntry('message.received', context.uuid, messageTimelineItem(message, author), author, realNow);
  const applied = await conversations.applyInboundMessage(scope, context.uuid, { messageId: message._id, sentAt: virtualNow, awaitingMedia: false, event, now: realNow });
  await conversations.showLastMessage(scope, context.uuid, { uuid: message._id, body: text, content_type: 'text', is_from_customer: true, created_at: virtualNow }, realNow);
  // Cancelled here, before the message's event is recorded: recording it also announces the message
  // on conversation-events, whose consumer would otherwise cancel first and leave this answer empty.
  const cancelled = await cancelSchedulesOnCustomerReply(dependencies.schedules, dependencies.events, scope, context.uuid, realNow, realNow);
  if (applied) await dependencies.events.recordQuietly('conversations', scope, context.uuid, [withSequence(event, applied)]);

  let aiRunGroup: string | undefined;
  if (context.ai_employee_uuid && context.inbox_status !== 'pending') {
    const command = createAiRunCommand({
      group_uuid: ids.newId(),
      business_id: scope.businessId,
      token_uuid: caller.token_uuid,
      request_id: currentRequestId() ?? null,
      conversation_uuid: context.uuid,
      created_at: realNow.toISOString(),
      // As for real inbound: the run answers only while this is the newest customer message (a burst gets one reply).
      in_reply_to_message_uuid: message._id,
    });
    await dependencies.publisher.submit(context.uuid, command);
    aiRunGroup = command.group_uuid;
  }
  return { conversation_uuid: context.uuid, message_uuid: message._id, created_at: virtualNow.toISOString(), cancelled_schedules: cancelled, ai_run_group_uuid: aiRunGroup };
}
