/** The public event types of CONTRACT 9.2: what webhook endpoints subscribe to and receive. */
export const EVENT_TYPES = [
  'message.received',
  'message.sent',
  'message.status_updated',
  'conversation.created',
  'conversation.inbox_status_changed',
  'conversation.assignment_changed',
  'conversation.tags_changed',
  'conversation.mailbox_changed',
  'note.created',
  'scheduled_message.sent',
  'scheduled_message.failed',
  'scheduled_message.cancelled',
  'action.failed',
  'action_group.finished',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An endpoint subscribed to `*` receives every type, those added later too. */
export const ALL_EVENT_TYPES = '*';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
