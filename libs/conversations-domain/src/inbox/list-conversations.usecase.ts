import type { BusinessScope, ConversationListFilter } from '@cmsg/dal';
import type { ConversationListItem, ListConversationsResponse } from '@cmsg/proto';
import { type ConversationListFilters, cursorFiltersOf, storedListFilter } from './conversation-list-filters';
import { loadReferencedObjects, type ReferencedObjectStores, tagsOf } from './conversation-references';
import type { ListCursorCodec } from '../listing/list-cursor';
import { fetchKeysetPage, type PageRequest } from '../listing/list-page';
import { MESSAGING_WINDOW_MS } from '../conversation/messaging-window';
import type { BusinessDirectory } from '../conversation/business-clock';
import type { StoredConversation } from '../conversation/conversation-resolver';

export const CONVERSATIONS_ENDPOINT = 'conversations';

const NO_FILTERS: ConversationListFilters = { tags: [] };

/** One page of conversations in the list's order (ConversationRepository.listPage). */
export interface ConversationPages {
  listPage(scope: BusinessScope, page: { filter: ConversationListFilter; after: Record<string, unknown>; direction: 1 | -1; limit: number }): Promise<StoredConversation[]>;
}

/** What the conversation list reads: the page, the business (for a window filter), the names the rows point to. */
export interface ConversationListPorts {
  conversations: ConversationPages;
  businesses: BusinessDirectory;
  references: ReferencedObjectStores;
}

/**
 * SPEC 4.4: sorted by last_message_at (creation time while empty), uuid tie-break; one query per
 * page plus names. CONTRACT 9.1: optional filters, combined with AND, bound into the cursor.
 */
export async function listConversations(
  ports: ConversationListPorts,
  scope: BusinessScope,
  codec: ListCursorCodec,
  request: PageRequest & { filters?: ConversationListFilters },
  realNow: number = Date.now(),
): Promise<ListConversationsResponse> {
  const filters = request.filters ?? NO_FILTERS;
  const filter = await storedListFilter(ports.businesses, scope, filters, realNow);
  const page = await fetchKeysetPage<StoredConversation>({
    codec,
    endpoint: CONVERSATIONS_ENDPOINT,
    request,
    filters: cursorFiltersOf(filters),
    sortField: 'sort_at',
    sortValue: (row) => row.sort_at,
    query: (after, direction, limit) => ports.conversations.listPage(scope, { filter, after, direction, limit }),
  });
  const objects = await loadReferencedObjects(ports.references, scope, page.rows);
  const items: ConversationListItem[] = page.rows.map((conversation) => {
    const contact = conversation.contact;
    const lastMessage = conversation.last_message;
    return {
      uuid: conversation._id,
      contact: {
        uuid: conversation.contact_id,
        name: contact?.name ?? undefined,
        profile_name: contact?.profile_name ?? undefined,
        phone: contact?.phone ?? undefined,
        chat_user_id: contact?.chat_user_id ?? undefined,
      },
      last_message_at: lastMessage?.created_at.toISOString(),
      last_message_preview: lastMessage
        ? { body: lastMessage.body ?? '', content_type: lastMessage.content_type, is_from_customer: lastMessage.is_from_customer }
        : undefined,
      unread_count: conversation.unread_count,
      mailbox: objects.mailbox(conversation.mailbox_id),
      ai_employee: objects.aiEmployee(conversation.ai_employee_id),
      tags: tagsOf(objects, conversation.tag_ids),
      messaging_window_expires_at: conversation.last_inbound_at
        ? new Date(conversation.last_inbound_at.getTime() + MESSAGING_WINDOW_MS).toISOString()
        : undefined,
      is_tester: conversation.is_tester,
      inbox_status: conversation.inbox_status,
      updated_at: conversation.updated_at.toISOString(),
    };
  });
  return { items, next_cursor: page.next_cursor, has_more: page.has_more };
}
