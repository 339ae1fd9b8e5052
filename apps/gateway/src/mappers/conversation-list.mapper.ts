import { type ConversationListItem, type ConversationListResponse, InboxStatusSchema } from '@cmsg/api-schemas';
import type { ConversationListItem as ProtoConversationListItem, ListConversationsResponse } from '@cmsg/proto';
import { mapOrNull, orNull, publicEnumValue, requiredField, toNamedRef, toTag } from './upstream-fields';

export function toConversationListItem(item: ProtoConversationListItem): ConversationListItem {
  const contact = requiredField(item.contact, 'items[].contact');
  return {
    uuid: item.uuid,
    contact: {
      uuid: contact.uuid,
      name: orNull(contact.name),
      profile_name: orNull(contact.profile_name),
      phone: orNull(contact.phone),
      chat_user_id: orNull(contact.chat_user_id),
    },
    last_message_at: orNull(item.last_message_at),
    last_message_preview: mapOrNull(item.last_message_preview, (preview) => ({
      body: preview.body,
      content_type: preview.content_type,
      is_from_customer: preview.is_from_customer,
    })),
    unread_count: item.unread_count,
    mailbox: mapOrNull(item.mailbox, toNamedRef),
    ai_employee: mapOrNull(item.ai_employee, toNamedRef),
    tags: item.tags.map(toTag),
    messaging_window_expires_at: orNull(item.messaging_window_expires_at),
    is_tester: item.is_tester,
    inbox_status: publicEnumValue(InboxStatusSchema.options, item.inbox_status, 'items[].inbox_status'),
    updated_at: item.updated_at,
  };
}

export function toConversationListResponse(response: ListConversationsResponse): ConversationListResponse {
  return { items: response.items.map(toConversationListItem), next_cursor: response.next_cursor, has_more: response.has_more };
}
