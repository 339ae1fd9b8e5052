import type { InferSchemaType } from 'mongoose';
import type { conversationOutboxSchema } from './conversation-outbox.schema';

export type ConversationOutboxEntity = InferSchemaType<typeof conversationOutboxSchema>;
