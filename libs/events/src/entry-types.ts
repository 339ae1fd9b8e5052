import type { EventType } from '@cmsg/api-schemas';

/** What a timeline row of kind `event` says happened (its `event_type`, CONTRACT 9.1). */
export const TIMELINE_EVENT_TYPES = [
  'inbox_status_changed',
  'assignment_changed',
  'tags_changed',
  'mailbox_changed',
  'schedule_created',
  'schedule_cancelled',
  'schedule_fired',
  'action_group_escalated',
] as const;
export type TimelineEventType = (typeof TIMELINE_EVENT_TYPES)[number];

interface EntryKind {
  /** The entry is recorded as a public event of its own type. */
  publicEvent: boolean;
  /** The timeline row it adds to the conversation, if any (the row's id is the entry's). */
  timeline: TimelineEventType | null;
}

/**
 * Every type an outbox entry can have, and what recording it writes: a public event (CONTRACT 9.2;
 * `ping` is sent by the webhook endpoints, never through an outbox), a timeline row (CONTRACT 9.1),
 * or both. Messages and notes are timeline items themselves, so their events add no row.
 */
export const OUTBOX_ENTRY_KINDS = {
  'message.received': { publicEvent: true, timeline: null },
  'message.sent': { publicEvent: true, timeline: null },
  'message.status_updated': { publicEvent: true, timeline: null },
  'conversation.created': { publicEvent: true, timeline: null },
  'conversation.inbox_status_changed': { publicEvent: true, timeline: 'inbox_status_changed' },
  'conversation.assignment_changed': { publicEvent: true, timeline: 'assignment_changed' },
  'conversation.tags_changed': { publicEvent: true, timeline: 'tags_changed' },
  'conversation.mailbox_changed': { publicEvent: true, timeline: 'mailbox_changed' },
  'note.created': { publicEvent: true, timeline: null },
  'scheduled_message.created': { publicEvent: false, timeline: 'schedule_created' },
  'scheduled_message.cancelled': { publicEvent: true, timeline: 'schedule_cancelled' },
  'scheduled_message.fired': { publicEvent: false, timeline: 'schedule_fired' },
  'scheduled_message.sent': { publicEvent: true, timeline: null },
  'scheduled_message.failed': { publicEvent: true, timeline: null },
  'action.failed': { publicEvent: true, timeline: null },
  'action_group.finished': { publicEvent: true, timeline: null },
  'action_group.escalated': { publicEvent: false, timeline: 'action_group_escalated' },
  'contact.created': { publicEvent: true, timeline: null },
  'contact.updated': { publicEvent: true, timeline: null },
  'contact.consent_changed': { publicEvent: true, timeline: null },
  'contact.erased': { publicEvent: true, timeline: null },
  'broadcast.started': { publicEvent: true, timeline: null },
  'broadcast.paused': { publicEvent: true, timeline: null },
  'broadcast.completed': { publicEvent: true, timeline: null },
} as const satisfies Record<Exclude<EventType, 'ping'> | `${string}.${string}`, EntryKind>;

export type OutboxEntryType = keyof typeof OUTBOX_ENTRY_KINDS;

export function entryKindOf(type: string): EntryKind | undefined {
  return Object.prototype.hasOwnProperty.call(OUTBOX_ENTRY_KINDS, type) ? OUTBOX_ENTRY_KINDS[type as OutboxEntryType] : undefined;
}
