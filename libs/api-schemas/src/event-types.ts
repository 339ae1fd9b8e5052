import { EVENT_TYPES, type EventType } from './event-envelope.schema';

/** An endpoint subscribed to `*` receives every type, those added later too. */
export const ALL_EVENT_TYPES = '*';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
