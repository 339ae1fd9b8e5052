import type { ConversationEntity } from './conversation.entity';

/** What a new conversation must be given: everything else takes the schema's default. */
export type ConversationIdentity = Pick<ConversationEntity, '_id' | 'business_id' | 'contact_id' | 'channel_id'>;

/**
 * A conversation as ConversationRepository stores a new one created at `at`: the schema's defaults
 * (conversation-defaults.spec.ts holds them to it), sorted by its creation. For the in-memory stores
 * that stand in for the repository in the domain libraries' unit specs.
 */
export function storedConversationDefaults(identity: ConversationIdentity, at: Date): ConversationEntity {
  return {
    ...identity,
    contact: null,
    ai_employee_id: null,
    mailbox_id: null,
    tag_ids: [],
    inbox_status: 'resolved',
    pending_reason: null,
    last_message: null,
    last_inbound_at: null,
    last_inbound_message_id: null,
    unread_count: 0,
    recent_inbound_message_ids: [],
    media_awaiting_transcription: 0,
    awaiting_media_message_ids: [],
    is_tester: false,
    outbox: [],
    event_sequence: 0,
    sort_at: at,
    created_at: at,
    updated_at: at,
  } as ConversationEntity;
}
