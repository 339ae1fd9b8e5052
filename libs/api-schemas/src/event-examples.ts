import type { EventEnvelopeOf, EventType } from './event-envelope.schema';
import type { TimelineMessageItem } from './timeline-item.schema';

/** One example of each event, for the document (a test parses each with its schema). */

const business = { slug: 'acme' };
const conversation = { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' };
const createdAt = '2026-01-31T18:04:05.000Z';
const exampleContact = { uuid: 'c4a3b2d1-e0f9-4e8d-9c7b-6a5f4e3d2c1b' };

const inboundMessage: TimelineMessageItem = {
  uuid: '6a1f0e2d-3c4b-4a59-8e7d-6c5b4a392817',
  kind: 'message',
  created_at: createdAt,
  author: { type: 'customer', uuid: 'c4a3b2d1-e0f9-4e8d-9c7b-6a5f4e3d2c1b', name: 'Ana López' },
  direction: 'inbound',
  content_type: 'text',
  body: 'Hi! Is my order on its way?',
  media: null,
  status: 'received',
  error: null,
  pricing: null,
};

const outboundMessage: TimelineMessageItem = {
  ...inboundMessage,
  uuid: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  author: { type: 'api_token', uuid: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b', name: null },
  direction: 'outbound',
  body: 'Yes, it ships today.',
  status: 'sent',
};

const envelope = <Type extends EventType>(type: Type, id: string, sequence: number) => ({ id, type, created_at: createdAt, business, conversation, sequence });
/** An event about no one conversation (CONTRACT 10.4). */
const businessEnvelope = <Type extends EventType>(type: Type, id: string) => ({ id, type, created_at: createdAt, business, conversation: null, sequence: 0 as const });

const exampleBroadcast = { uuid: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b', name: 'Gold plan renewal, March' };

export const EVENT_EXAMPLES: { [Type in EventType]: EventEnvelopeOf<Type> } = {
  'message.received': { ...envelope('message.received', '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', 12), data: inboundMessage },
  'message.sent': { ...envelope('message.sent', '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a', 13), data: outboundMessage },
  'message.status_updated': {
    ...envelope('message.status_updated', '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b', 14),
    data: {
      ...outboundMessage,
      status: 'failed',
      error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'The chat platform reported the message as failed (code 131026): Message undeliverable.', provider_code: '131026' },
    },
  },
  'conversation.created': {
    ...envelope('conversation.created', '4f5a6b7c-8d9e-4f0a-9b2c-3d4e5f6a7b8c', 1),
    data: {
      contact: { uuid: 'c4a3b2d1-e0f9-4e8d-9c7b-6a5f4e3d2c1b', name: 'Ana López', profile_name: 'Ana', phone: '5215512345678', chat_user_id: 'US.13491208655302741918' },
      channel: { public_key: 'main-line' },
      is_tester: false,
    },
  },
  'conversation.inbox_status_changed': {
    ...envelope('conversation.inbox_status_changed', '5a6b7c8d-9e0f-4a1b-8c3d-4e5f6a7b8c9d', 15),
    data: { from: 'resolved', to: 'pending', reason: 'marked_pending' },
  },
  'conversation.assignment_changed': {
    ...envelope('conversation.assignment_changed', '6b7c8d9e-0f1a-4b2c-9d4e-5f6a7b8c9d0e', 16),
    data: { from: { type: 'ai_employee', uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', name: 'Sofia' }, to: { type: 'human', uuid: null, name: null } },
  },
  'conversation.tags_changed': {
    ...envelope('conversation.tags_changed', '7c8d9e0f-1a2b-4c3d-8e5f-6a7b8c9d0e1f', 17),
    data: { added: ['f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'], removed: [] },
  },
  'conversation.mailbox_changed': {
    ...envelope('conversation.mailbox_changed', '8d9e0f1a-2b3c-4d4e-9f6a-7b8c9d0e1f2a', 18),
    data: { from: null, to: { type: 'mailbox', uuid: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b', name: 'Billing' } },
  },
  'note.created': {
    ...envelope('note.created', '9e0f1a2b-3c4d-4e5f-8a7b-8c9d0e1f2a3b', 19),
    data: {
      uuid: '0f1a2b3c-4d5e-4f6a-9b8c-9d0e1f2a3b4c',
      kind: 'note',
      created_at: createdAt,
      author: { type: 'api_token', uuid: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b', name: null },
      note: 'Customer prefers mornings.',
    },
  },
  'scheduled_message.sent': { ...envelope('scheduled_message.sent', 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', 20), data: { scheduled_message_uuid: 'b1c2d3e4-f5a6-4b7c-9d8e-0f1a2b3c4d5e' } },
  'scheduled_message.failed': {
    ...envelope('scheduled_message.failed', 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e', 21),
    data: { scheduled_message_uuid: 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f', error: { code: 'TEMPLATE_NOT_APPROVED', message: 'The fallback template is not approved.' } },
  },
  'scheduled_message.cancelled': {
    ...envelope('scheduled_message.cancelled', 'c3d4e5f6-a7b8-4c9d-8e1f-2a3b4c5d6e7f', 22),
    data: { scheduled_message_uuid: 'd3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a' },
  },
  'action.failed': {
    ...envelope('action.failed', 'd4e5f6a7-b8c9-4d0e-9f2a-3b4c5d6e7f8a', 23),
    data: {
      action_group: { uuid: 'e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a9b' },
      conversation,
      action: { index: 0, type: 'assign_label', error: { code: 'TAG_NOT_FOUND', message: 'No such tag in this business: VIP.' } },
    },
  },
  'action_group.finished': {
    ...envelope('action_group.finished', 'e6f7a8b9-c0d1-4e2f-9a4b-5c6d7e8f9a0b', 24),
    data: {
      action_group: {
        uuid: 'e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a9b',
        status: 'failed',
        escalated: false,
        actions: [
          { index: 0, type: 'assign_label', status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'No such tag in this business: VIP.' } },
          { index: 1, type: 'context_note', status: 'succeeded', error: null },
        ],
        created_at: createdAt,
        finished_at: '2026-01-31T18:04:06.250Z',
      },
      conversation,
    },
  },
  'contact.created': { ...envelope('contact.created', '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', 1), data: { contact: exampleContact } },
  'contact.updated': { ...envelope('contact.updated', '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', 2), data: { contact: exampleContact, changed: ['email', 'attributes.plan'] } },
  'contact.consent_changed': {
    ...envelope('contact.consent_changed', '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f', 3),
    data: { contact: exampleContact, category: 'marketing', from: 'unknown', to: 'opted_out', source: 'keyword' },
  },
  'contact.erased': { ...envelope('contact.erased', '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f8a', 4), data: { contact: exampleContact } },
  'broadcast.started': {
    ...businessEnvelope('broadcast.started', '6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c'),
    data: { broadcast: exampleBroadcast, counts: { total: 1250, pending: 1229, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 21, unknown: 0 }, reason: null },
  },
  'broadcast.paused': {
    ...businessEnvelope('broadcast.paused', '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'),
    data: { broadcast: exampleBroadcast, counts: { total: 1250, pending: 979, sent: 120, delivered: 96, read: 30, replied: 2, failed: 2, skipped: 21, unknown: 0 }, reason: 'messaging_limit' },
  },
  'broadcast.completed': {
    ...businessEnvelope('broadcast.completed', '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e'),
    data: { broadcast: exampleBroadcast, counts: { total: 1250, pending: 0, sent: 310, delivered: 640, read: 220, replied: 41, failed: 17, skipped: 21, unknown: 1 }, reason: null },
  },
  ping: { id: 'f7a8b9c0-d1e2-4f3a-8b5c-6d7e8f9a0b1c', type: 'ping', created_at: createdAt, business, conversation: null, sequence: 0, data: {} },
};
