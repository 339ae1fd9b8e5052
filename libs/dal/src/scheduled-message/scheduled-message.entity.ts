import type { InferSchemaType } from 'mongoose';
import type { scheduledMessageSchema } from './scheduled-message.schema';

export type ScheduledMessageEntity = InferSchemaType<typeof scheduledMessageSchema>;
