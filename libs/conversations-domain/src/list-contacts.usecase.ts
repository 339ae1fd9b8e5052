import { type BusinessScope, type ContactListFilter, phoneLookupKey, usernameLookupKey } from '@cmsg/dal';
import type { Contact, ListContactsResponse } from '@cmsg/proto';
import { fullName } from './contact-names';
import type { CursorFilters, ListCursorCodec } from './list-cursor';
import { fetchKeysetPage } from './list-page';
import { repositories } from './repositories';
import type { StoredContact } from './resolve-conversation-reference';
import { parseUpdatedSince } from './updated-since';

/** CONTRACT 9.1: each optional, combined with AND; lookups normalised as a conversation reference's. */
export interface ContactListFilters {
  /** RFC 3339 date-time: contacts updated at or after it. */
  updatedSince?: string;
  phone?: string;
  chatUserId?: string;
  username?: string;
}

export interface ListContactsRequest {
  cursor?: string;
  limit: number;
  testersOnly: boolean;
  filters?: ContactListFilters;
}

/**
 * SPEC 4.6: created_at descending, uuid tie-break; /tester/contacts has its own cursors. The
 * filters are bound into the cursor: a cursor used with other filters is INVALID_CURSOR.
 */
export async function listContacts(scope: BusinessScope, codec: ListCursorCodec, request: ListContactsRequest): Promise<ListContactsResponse> {
  const filter = contactListFilterOf(request.testersOnly, request.filters ?? {});
  const page = await fetchKeysetPage<StoredContact>({
    codec,
    endpoint: request.testersOnly ? 'tester-contacts' : 'contacts',
    request: { cursor: request.cursor, limit: request.limit, order: 'desc' },
    filters: cursorFiltersOf(filter),
    sortField: 'created_at',
    sortValue: (row) => row.created_at,
    // Newest first only (SPEC 4.6).
    query: (after, _direction, limit) => repositories.contacts.listPage(scope, { ...filter, after, limit }),
  });
  return { items: page.rows.map(toPublicContact), has_more: page.has_more, next_cursor: page.next_cursor };
}

function contactListFilterOf(testersOnly: boolean, filters: ContactListFilters): ContactListFilter {
  return {
    testersOnly,
    updatedSince: parseUpdatedSince(filters.updatedSince),
    lookup: {
      chat_user_id: filters.chatUserId,
      username_key: filters.username === undefined ? undefined : usernameLookupKey(filters.username),
      phone_key: filters.phone === undefined ? undefined : phoneLookupKey(filters.phone),
    },
  };
}

/** The normalised values, so "+52 1 55..." and "52155..." page with each other's cursors. */
function cursorFiltersOf(filter: ContactListFilter): CursorFilters {
  return { updated_since: filter.updatedSince?.getTime(), ...filter.lookup };
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
