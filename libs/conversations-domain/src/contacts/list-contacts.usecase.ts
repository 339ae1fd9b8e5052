import { type BusinessScope, type ContactListFilter, phoneLookupKey, usernameLookupKey } from '@cmsg/dal';
import type { ListContactsResponse } from '@cmsg/proto';
import type { ContactReadPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';
import type { CursorFilters, ListCursorCodec } from '../listing/list-cursor';
import { fetchKeysetPage } from '../listing/list-page';
import type { StoredContact } from '../conversation/conversation-resolver';
import { parseUpdatedSince } from '../listing/updated-since';

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
export async function listContacts(ports: ContactReadPorts, scope: BusinessScope, codec: ListCursorCodec, request: ListContactsRequest): Promise<ListContactsResponse> {
  const filter = contactListFilterOf(request.testersOnly, request.filters ?? {});
  const page = await fetchKeysetPage<StoredContact>({
    codec,
    endpoint: request.testersOnly ? 'tester-contacts' : 'contacts',
    request: { cursor: request.cursor, limit: request.limit, order: 'desc' },
    filters: cursorFiltersOf(filter),
    sortField: 'created_at',
    sortValue: (row) => row.created_at,
    // Newest first only (SPEC 4.6).
    query: (after, _direction, limit) => ports.contacts.listPage(scope, { ...filter, after, limit }),
  });
  const context = await contactViewContext(ports, scope, page.rows);
  return { items: page.rows.map((contact) => contactView(contact, context)), has_more: page.has_more, next_cursor: page.next_cursor };
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
