import type { InferSchemaType } from 'mongoose';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import type { timelineEventSchema } from './timeline-event.schema';

export type TimelineEventEntity = Omit<InferSchemaType<typeof timelineEventSchema>, 'outbox'> & { outbox?: OutboxEntry[] };
