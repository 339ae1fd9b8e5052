import { scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { businessScope, pendingConversationKey } from '@cmsg/dal';
import type { InMemorySchedulingWorld, StoredConversation, StoredSchedule, StoredTemplate } from './in-memory-scheduling-ports';

const HOUR_MS = 60 * 60 * 1000;

/** A business with its time zone (UTC unless given) and its tester clock where the real one is. */
export function addBusiness(world: InMemorySchedulingWorld, id: string, fields: { time_zone?: string; tester_clock_offset_ms?: number } = {}): string {
  world.businesses.push({ _id: id, time_zone: fields.time_zone ?? 'UTC', tester_clock_offset_ms: fields.tester_clock_offset_ms ?? 0 });
  return id;
}

export function addChannel(world: InMemorySchedulingWorld, businessId: string, name: string, publicKey = `key-${name}`): string {
  const id = world.newId();
  world.channels.push({ _id: id, business_id: businessId, public_key: publicKey, name });
  return id;
}

export interface ConversationSeed {
  ai_employee_id?: string | null;
  is_tester?: boolean;
  inbox_status?: string;
  /** When the customer last wrote (the window is open for 24 h after): an hour before now unless given; null never. */
  last_inbound_at?: Date | null;
  contact_name?: string | null;
}

/** A conversation of the business with its contact (its window open unless the seed says otherwise); answers its id. */
export function addConversation(world: InMemorySchedulingWorld, businessId: string, seed: ConversationSeed = {}): string {
  const id = world.newId();
  const conversation: StoredConversation = {
    _id: id,
    business_id: businessId,
    contact_id: world.newId(),
    channel_id: 'channel-1',
    ai_employee_id: seed.ai_employee_id ?? null,
    is_tester: seed.is_tester ?? false,
    inbox_status: seed.inbox_status ?? 'open',
    contact: { name: seed.contact_name ?? 'Ana Cliente', profile_name: null, phone: '+5215512345678', chat_user_id: null },
    event_sequence: 3,
    unread_count: 0,
    last_inbound_at: seed.last_inbound_at === undefined ? new Date(world.now.getTime() - HOUR_MS) : seed.last_inbound_at,
    last_inbound_message_id: null,
    recent_inbound_message_ids: [],
    last_message: null,
    outbox: [],
    sort_at: world.now,
    created_at: world.now,
    updated_at: world.now,
  };
  world.conversations.push(conversation);
  return id;
}

export function addTemplate(world: InMemorySchedulingWorld, businessId: string, fields: Partial<Omit<StoredTemplate, 'business_id'>> = {}): string {
  const id = fields._id ?? world.newId();
  world.templates.push({ _id: id, business_id: businessId, name: fields.name ?? 'greeting', status: fields.status ?? 'approved', variable_count: fields.variable_count ?? 0 });
  return id;
}

/** An AI employee, quick reply or confirmed upload (module api_messages) of the business. */
export function addOwned(world: InMemorySchedulingWorld, collection: 'aiEmployees' | 'quickReplies' | 'confirmedFiles', businessId: string): string {
  const id = world.newId();
  world[collection].push({ _id: id, business_id: businessId });
  return id;
}

/**
 * A human schedule of the conversation as createScheduledMessage stores it (history `created`);
 * pending unless `fields` say otherwise, and then holding the conversation's pending key. Answers its id.
 */
export function addSchedule(world: InMemorySchedulingWorld, businessId: string, conversationId: string, fields: Partial<StoredSchedule> = {}): string {
  const id = fields._id ?? world.newId();
  const at = world.now;
  const scheduleAt = new Date(at.getTime() + HOUR_MS);
  world.schedules.push({
    _id: id,
    business_id: businessId,
    conversation_id: conversationId,
    status: 'pending',
    executor_kind: 'human_user',
    ai_employee_id: null,
    reason: null,
    template_id: 'template-1',
    message_kind: 'message',
    payload: { kind: 'message', text: 'See you at 5' },
    template_variables: [],
    template_header: null,
    template_button_parameters: [],
    schedule_at: scheduleAt,
    schedule_local: { date: scheduleAt.toISOString().slice(0, 10), time: scheduleAt.toISOString().slice(11, 16), time_zone: 'UTC' },
    cancel_on_customer_reply: false,
    is_tester: false,
    created_by_token_id: 'token-1',
    author: { type: 'api_token', uuid: 'token-1' },
    error: null,
    history: [scheduleHistoryEntry('created', 'pending', at, { actor: { type: 'api_token', uuid: 'token-1' } })],
    fired_at: null,
    fire_claim: null,
    delivery: null,
    note_id: null,
    outbox: [],
    created_at: at,
    updated_at: at,
    ...fields,
    ...((fields.status ?? 'pending') === 'pending' ? { pending_conversation_key: pendingConversationKey(businessScope(businessId), conversationId), pending_id: id } : {}),
  });
  return id;
}
