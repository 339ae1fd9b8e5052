import type { BusinessScope, ConversationChange, ConversationEntity, InboxStatusChange, OutboxEntry } from '@cmsg/dal';
import type { ConversationOwnerWriter } from '../ai-assignment/ai-assignment-ports';
import type { InboxStatusWriter } from '../inbox/set-inbox-status.usecase';
import type { ConversationMailboxWriter } from '../mailbox/assign-mailbox.usecase';
import type { ConversationTagWriter } from '../tags/change-tags.usecase';
import type { InMemoryConversationLookup } from './in-memory-conversations';

/**
 * The compare-and-set updates of ConversationRepository on the lookup's conversations: each
 * matches only while the state it replaces is there, pushes its entry and takes the next event
 * sequence, or answers null. `losses` makes that many next updates miss, as one that lost to a
 * concurrent change does.
 */
export class InMemoryConversationChanges implements ConversationTagWriter, InboxStatusWriter, ConversationMailboxWriter, ConversationOwnerWriter {
  losses = 0;
  /** Every entry pushed, by conversation id. */
  readonly outboxes = new Map<string, OutboxEntry[]>();

  constructor(private readonly lookup: InMemoryConversationLookup) {}

  async addTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<ConversationEntity | null> {
    return this.change(scope, id, event, now, (row) => (tagIds.some((tagId) => row.tag_ids.includes(tagId)) ? null : { tag_ids: [...row.tag_ids, ...tagIds] }));
  }

  async removeTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<ConversationEntity | null> {
    return this.change(scope, id, event, now, (row) =>
      tagIds.every((tagId) => row.tag_ids.includes(tagId)) ? { tag_ids: row.tag_ids.filter((tagId) => !tagIds.includes(tagId)) } : null,
    );
  }

  async changeInboxStatus(scope: BusinessScope, id: string, change: InboxStatusChange): Promise<ConversationEntity | null> {
    return this.change(scope, id, change.event, change.now, (row) => {
      const resolvable = row.ai_employee_id === null || row.media_awaiting_transcription <= 0;
      if (row.inbox_status !== change.from || (change.onlyIfResolvable && !resolvable)) return null;
      return { inbox_status: change.to, pending_reason: change.pendingReason };
    });
  }

  async changeMailbox(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<ConversationEntity | null> {
    return this.change(scope, id, change.event, change.now, (row) => ((row.mailbox_id ?? null) === change.from ? { mailbox_id: change.to } : null));
  }

  async changeOwner(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<ConversationEntity | null> {
    return this.change(scope, id, change.event, change.now, (row) => ((row.ai_employee_id ?? null) === change.from ? { ai_employee_id: change.to } : null));
  }

  private change(scope: BusinessScope, id: string, event: OutboxEntry, now: Date, fields: (row: ConversationEntity) => Partial<ConversationEntity> | null): ConversationEntity | null {
    if (this.losses > 0) {
      this.losses -= 1;
      return null;
    }
    const row = this.lookup.conversationRows.find((candidate) => candidate.business_id === scope.businessId && candidate._id === id);
    const set = row && fields(row);
    if (!row || !set) return null;
    Object.assign(row, set, { updated_at: now, event_sequence: row.event_sequence + 1 });
    this.outboxes.set(id, [...(this.outboxes.get(id) ?? []), event]);
    return { ...row };
  }
}
