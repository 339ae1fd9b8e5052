import type { InferSchemaType } from 'mongoose';
import type { timelineEventSchema } from './timeline-event.schema';

export type TimelineEventEntity = InferSchemaType<typeof timelineEventSchema>;
