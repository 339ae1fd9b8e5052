import { compileContactFilter, contactFilterKey, parseContactFilter } from '@cmsg/contact-filter';
import type { BusinessScope, ContactEntity } from '@cmsg/dal';
import type { ListContactsResponse } from '@cmsg/proto';
import type { ListCursorCodec } from '../listing/list-cursor';
import { fetchKeysetPage } from '../listing/list-page';
import { attributeDefinitionsOf } from './contact-attributes.usecase';
import type { ContactReadPorts } from './contact-ports';
import { contactView, contactViewContext } from './contact-view';

export interface SearchContactsRequest {
  filter: unknown;
  cursor?: string;
  limit: number;
}

/**
 * POST /contacts/search (CONTRACT 10.1): newest first, like GET /contacts. The filter is bound into
 * the cursor by its canonical key, so a cursor answers only the same filter (INVALID_CURSOR else).
 */
export async function searchContacts(ports: ContactReadPorts, codec: ListCursorCodec, scope: BusinessScope, request: SearchContactsRequest): Promise<ListContactsResponse> {
  const definitions = await ports.attributeDefinitions.list(scope);
  const filter = parseContactFilter(request.filter, attributeDefinitionsOf(definitions));
  const compiled = compileContactFilter(filter);
  const page = await fetchKeysetPage<ContactEntity>({
    codec,
    endpoint: 'contacts-search',
    request: { cursor: request.cursor, limit: request.limit, order: 'desc' },
    filters: { filter: contactFilterKey(filter) },
    sortField: 'created_at',
    sortValue: (row) => row.created_at,
    query: (after, _direction, limit) => ports.contacts.searchPage(scope, { filter: compiled, after, limit }),
  });
  const context = await contactViewContext(ports, scope, page.rows, definitions);
  return { items: page.rows.map((contact) => contactView(contact, context)), has_more: page.has_more, next_cursor: page.next_cursor };
}
