import type { InferSchemaType } from 'mongoose';
import type { conversationStateLogSchema } from './conversation-state-log.schema';

export type ConversationStateLogEntity = InferSchemaType<typeof conversationStateLogSchema>;
