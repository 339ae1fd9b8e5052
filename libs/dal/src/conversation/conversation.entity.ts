import type { InferSchemaType } from 'mongoose';
import type { conversationSchema } from './conversation.schema';

export type ConversationEntity = InferSchemaType<typeof conversationSchema>;
