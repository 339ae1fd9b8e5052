import type { BusinessScope } from '@cmsg/dal';
import type { Contact, ListContactsResponse } from '@cmsg/proto';
import { fullName } from './contact-names';
import type { ListCursorCodec } from './list-cursor';
import { fetchKeysetPage } from './list-page';
import { repositories } from './repositories';
import type { StoredContact } from './resolve-conversation-reference';

export interface ListContactsRequest {
  cursor?: string;
  limit: number;
  testersOnly: boolean;
}

/** SPEC 4.6: created_at descending, uuid tie-break; /tester/contacts has its own cursors. */
export async function listContacts(scope: BusinessScope, codec: ListCursorCodec, request: ListContactsRequest): Promise<ListContactsResponse> {
  const page = await fetchKeysetPage<StoredContact>({
    codec,
    endpoint: request.testersOnly ? 'tester-contacts' : 'contacts',
    request: { cursor: request.cursor, limit: request.limit, order: 'desc' },
    sortField: 'created_at',
    sortValue: (row) => row.created_at,
    // Newest first only (SPEC 4.6).
    query: (after, _direction, limit) => repositories.contacts.listPage(scope, { testersOnly: request.testersOnly, after, limit }),
  });
  return { items: page.rows.map(toPublicContact), has_more: page.has_more, next_cursor: page.next_cursor };
}

export function toPublicContact(contact: StoredContact): Contact {
  return {
    uuid: contact._id,
    first_name: contact.first_name ?? undefined,
    middle_name: contact.middle_name ?? undefined,
    last_name: contact.last_name ?? undefined,
    second_last_name: contact.second_last_name ?? undefined,
    full_name: fullName(contact),
    chat_id: contact.phone_key ?? undefined,
    chat_user_id: contact.chat_user_id ?? undefined,
    chat_username: contact.chat_username ?? undefined,
    acquisition_source: contact.acquisition_source ?? undefined,
    is_tester: contact.is_tester,
    created_at: contact.created_at.toISOString(),
    updated_at: contact.updated_at.toISOString(),
  };
}
