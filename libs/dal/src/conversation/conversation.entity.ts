import type { InferSchemaType } from 'mongoose';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import type { conversationSchema } from './conversation.schema';

export type ConversationEntity = Omit<InferSchemaType<typeof conversationSchema>, 'outbox'> & { outbox: OutboxEntry[] };

/** What a conversation shows of its newest message. */
export interface LastMessage {
  uuid: string;
  body: string;
  content_type: string;
  is_from_customer: boolean;
  created_at: Date;
}
