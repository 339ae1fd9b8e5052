import type { BroadcastCountsEntity, BroadcastEntity, OutboxEntry } from '@cmsg/dal';
import { SYSTEM_AUTHOR, outboxEntry } from '@cmsg/events';

export type BroadcastEventType = 'broadcast.started' | 'broadcast.paused' | 'broadcast.completed';

/** CONTRACT 10.4: `conversation: null`, data `{ broadcast: { uuid, name }, counts, reason }`. */
export function broadcastEvent(type: BroadcastEventType, broadcast: Pick<BroadcastEntity, '_id' | 'name'>, counts: BroadcastCountsEntity, reason: string | null, now: Date): OutboxEntry {
  return outboxEntry(type, null, { broadcast: { uuid: broadcast._id, name: broadcast.name }, counts: { ...counts }, reason }, SYSTEM_AUTHOR, now);
}
