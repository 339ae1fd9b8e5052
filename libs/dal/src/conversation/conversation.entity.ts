import type { InferSchemaType } from 'mongoose';
import type { conversationSchema } from './conversation.schema';

export type ConversationEntity = InferSchemaType<typeof conversationSchema>;

/** An event in a conversation's outbox (and on topic conversation-events, keyed by the conversation uuid). */
export interface OutboxEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** What a conversation shows of its newest message. */
export interface LastMessage {
  uuid: string;
  body: string;
  content_type: string;
  is_from_customer: boolean;
  created_at: Date;
}
