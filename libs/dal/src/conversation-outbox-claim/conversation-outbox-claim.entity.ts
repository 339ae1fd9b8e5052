import type { InferSchemaType } from 'mongoose';
import type { conversationOutboxClaimSchema } from './conversation-outbox-claim.schema';

export type ConversationOutboxClaimEntity = InferSchemaType<typeof conversationOutboxClaimSchema>;
