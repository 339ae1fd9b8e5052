import type { BusinessScope, ConversationEntity, ConversationListFilter } from '@cmsg/dal';
import type { ConversationPages } from '../inbox/list-conversations.usecase';
import type { InMemoryConversationLookup } from './in-memory-conversations';
import { keysetOrder, matchesKeyset } from './in-memory-keyset';

/** The list's pages over the lookup's conversations, filtered as ConversationRepository.listPage filters them. */
export class InMemoryConversationPages implements ConversationPages {
  constructor(private readonly lookup: InMemoryConversationLookup) {}

  async listPage(scope: BusinessScope, page: { filter: ConversationListFilter; after: Record<string, unknown>; direction: 1 | -1; limit: number }): Promise<ConversationEntity[]> {
    return this.lookup.conversationRows
      .filter((row) => row.business_id === scope.businessId && listed(row, page.filter) && matchesKeyset(row, page.after))
      .sort(keysetOrder<ConversationEntity>('sort_at', page.direction))
      .slice(0, page.limit)
      .map((row) => ({ ...row }));
  }
}

function listed(row: ConversationEntity, filter: ConversationListFilter): boolean {
  const window = filter.window;
  const since = window && (row.is_tester ? window.testerSince : window.since);
  return (
    (filter.inboxStatus === undefined || row.inbox_status === filter.inboxStatus) &&
    (filter.tagIds === undefined || filter.tagIds.every((tagId) => row.tag_ids.includes(tagId))) &&
    (filter.mailboxId === undefined || row.mailbox_id === filter.mailboxId) &&
    (filter.aiEmployeeId === undefined || (row.ai_employee_id ?? null) === filter.aiEmployeeId) &&
    (filter.isTester === undefined || row.is_tester === filter.isTester) &&
    (filter.updatedSince === undefined || row.updated_at >= filter.updatedSince) &&
    (!window || !since || window.open === (row.last_inbound_at != null && row.last_inbound_at > since))
  );
}
