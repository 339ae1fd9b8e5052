import type { InferSchemaType } from 'mongoose';
import type { conversationScheduleSlotSchema } from './conversation-schedule-slot.schema';

export type ConversationScheduleSlotEntity = InferSchemaType<typeof conversationScheduleSlotSchema>;
