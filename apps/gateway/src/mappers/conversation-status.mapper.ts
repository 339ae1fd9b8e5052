import { type ConversationStatusSnapshot, InboxStatusSchema, WindowStatusSchema } from '@cmsg/api-schemas';
import type { ConversationStatus } from '@cmsg/proto';
import { mapOrNull, orNull, publicEnumValue, requiredField, toNamedRef, toTag } from './upstream-fields';

export function toConversationStatusSnapshot(status: ConversationStatus): ConversationStatusSnapshot {
  const conversation = requiredField(status.conversation, 'conversation');
  const window = requiredField(status.window, 'window');
  return {
    conversation: { uuid: conversation.uuid, phone: orNull(conversation.phone), chat_user_id: orNull(conversation.chat_user_id) },
    window: {
      status: publicEnumValue(WindowStatusSchema.options, window.status, 'window.status'),
      expires_at: orNull(window.expires_at),
      hours_remaining: window.hours_remaining,
    },
    assignment: { ai_employee: mapOrNull(status.assignment?.ai_employee, toNamedRef) },
    mailbox: mapOrNull(status.mailbox, toNamedRef),
    tags: status.tags.map(toTag),
    inbox_status: publicEnumValue(InboxStatusSchema.options, status.inbox_status, 'inbox_status'),
    last_message: mapOrNull(status.last_message, (message) => ({
      uuid: message.uuid,
      is_from_customer: message.is_from_customer,
      created_at: message.created_at,
    })),
    is_tester: status.is_tester,
    tester_virtual_now: orNull(status.tester_virtual_now),
  };
}
