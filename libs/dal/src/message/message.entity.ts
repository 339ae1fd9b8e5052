import type { InferSchemaType } from 'mongoose';
import type { messageSchema } from './message.schema';

export type MessageEntity = InferSchemaType<typeof messageSchema>;
