import type { BusinessScope, ConversationEntity, LastMessage, MessageEntity, NewMessage, OutboxEntry, StoredError } from '@cmsg/dal';
import type { ConversationLastMessages, OutboundMessages } from '../messaging/send-message-ports';
import type { InMemoryConversationLookup } from './in-memory-conversations';

/** The messages collection in memory, with MessageRepository's insert-if-absent and conditional settles of an outbound message. */
export class InMemoryOutboundMessages implements OutboundMessages {
  readonly rows: MessageEntity[] = [];

  async findOutbound(scope: BusinessScope, id: string): Promise<MessageEntity | null> {
    const row = this.outbound(scope, id);
    return row ? { ...row } : null;
  }

  async insertIfAbsent(scope: BusinessScope, message: NewMessage): Promise<boolean> {
    if (this.rows.some((row) => row._id === message._id)) return false;
    this.rows.push({ ...message, business_id: scope.businessId } as MessageEntity);
    return true;
  }

  async markSent(scope: BusinessScope, id: string, providerMessageId: string, event: OutboxEntry): Promise<MessageEntity | null> {
    const row = this.outbound(scope, id);
    if (!row) return null;
    Object.assign(row, { status: 'sent', provider_message_id: providerMessageId, error: null, outbox: [...(row.outbox ?? []), event] });
    return { ...row };
  }

  async markFailedIfSending(scope: BusinessScope, id: string, error: StoredError, event: OutboxEntry): Promise<boolean> {
    const row = this.outbound(scope, id);
    if (row?.status !== 'sending') return false;
    Object.assign(row, { status: 'failed', error, outbox: [...(row.outbox ?? []), event] });
    return true;
  }

  async deleteIfSending(scope: BusinessScope, id: string): Promise<void> {
    const row = this.outbound(scope, id);
    if (row?.status === 'sending') this.rows.splice(this.rows.indexOf(row), 1);
  }

  private outbound(scope: BusinessScope, id: string): MessageEntity | undefined {
    return this.rows.find((row) => row.business_id === scope.businessId && row._id === id && !row.is_from_customer);
  }
}

/** How the lookup's conversations show their last message, as ConversationRepository does: never over a newer one, never twice. */
export class InMemoryConversationLastMessages implements ConversationLastMessages {
  constructor(private readonly lookup: InMemoryConversationLookup) {}

  findById(scope: BusinessScope, id: string): Promise<ConversationEntity | null> {
    return this.lookup.conversations.findById(scope, id);
  }

  async showLastMessage(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<void> {
    this.show(scope, id, message, now);
  }

  async showLastMessageTakingSequence(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<Pick<ConversationEntity, 'event_sequence'> | null> {
    const row = this.show(scope, id, message, now);
    if (!row) return null;
    row.event_sequence += 1;
    return { event_sequence: row.event_sequence };
  }

  private show(scope: BusinessScope, id: string, message: LastMessage, now: Date): ConversationEntity | null {
    const row = this.lookup.conversationRows.find((candidate) => candidate.business_id === scope.businessId && candidate._id === id);
    const shown = row?.last_message;
    if (!row || shown?.uuid === message.uuid || (shown && shown.created_at > message.created_at)) return null;
    Object.assign(row, { last_message: message, sort_at: message.created_at, updated_at: now }, message.is_from_customer ? {} : { unread_count: 0 });
    return row;
  }
}
