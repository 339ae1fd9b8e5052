import type { OutboxEntry } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';

/** The EventOutbox's onRecordError of every app: a warning, since the relay records the entry later. */
export function warnOfRecordingFailure(logger: Pick<Logger, 'warn'>): (error: unknown, entry: OutboxEntry) => void {
  return (error, entry) => logger.warn({ err: error, event_id: entry.id, conversation_uuid: entry.conversation_id }, 'event recording failed; the outbox relay will retry');
}
