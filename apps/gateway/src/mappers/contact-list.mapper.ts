import { ATTRIBUTE_TYPES, CONSENT_SOURCES, CONSENT_STATUSES, type Contact, type ContactAttributeDefinition, type ContactListResponse } from '@cmsg/api-schemas';
import type { ConsentState as ProtoConsentState, ContactAttribute as ProtoContactAttribute, Contact as ProtoContact, ListContactsResponse } from '@cmsg/proto';
import { orNull, publicEnumValue } from './upstream-fields';

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
    channel: orNull(contact.channel),
    phone: orNull(contact.phone),
    email: orNull(contact.email),
    language: orNull(contact.language),
    external_id: orNull(contact.external_id),
    attributes: (contact.attributes ?? {}) as Contact['attributes'],
    consent: { marketing: toConsentState(contact.consent?.marketing), utility: toConsentState(contact.consent?.utility) },
    conversation: contact.conversation_uuid ? { uuid: contact.conversation_uuid } : null,
  };
}

function toConsentState(state: ProtoConsentState | undefined): Contact['consent']['marketing'] {
  return {
    status: publicEnumValue(CONSENT_STATUSES, state?.status ?? 'unknown', 'consent.status'),
    source: state?.source === undefined ? null : publicEnumValue(CONSENT_SOURCES, state.source, 'consent.source'),
    updated_at: orNull(state?.updated_at),
  };
}

export function toContactAttributeDefinition(definition: ProtoContactAttribute): ContactAttributeDefinition {
  return { key: definition.key, type: publicEnumValue(ATTRIBUTE_TYPES, definition.type, 'type'), options: definition.options, created_at: definition.created_at };
}

export function toContactListResponse(response: ListContactsResponse): ContactListResponse {
  return { items: response.items.map(toContact), has_more: response.has_more, next_cursor: response.next_cursor };
}
