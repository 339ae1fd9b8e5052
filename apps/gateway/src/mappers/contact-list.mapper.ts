import type { Contact, ContactListResponse } from '@cmsg/api-schemas';
import type { Contact as ProtoContact, ListContactsResponse } from '@cmsg/proto';
import { orNull } from './upstream-fields';

export function toContact(contact: ProtoContact): Contact {
  return {
    uuid: contact.uuid,
    first_name: orNull(contact.first_name),
    middle_name: orNull(contact.middle_name),
    last_name: orNull(contact.last_name),
    second_last_name: orNull(contact.second_last_name),
    full_name: orNull(contact.full_name),
    chat_id: orNull(contact.chat_id),
    chat_user_id: orNull(contact.chat_user_id),
    chat_username: orNull(contact.chat_username),
    acquisition_source: orNull(contact.acquisition_source),
    is_tester: contact.is_tester,
    created_at: contact.created_at,
    updated_at: contact.updated_at,
  };
}

export function toContactListResponse(response: ListContactsResponse): ContactListResponse {
  return { items: response.items.map(toContact), has_more: response.has_more, next_cursor: response.next_cursor };
}
