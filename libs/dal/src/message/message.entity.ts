import type { InferSchemaType } from 'mongoose';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import type { messageSchema } from './message.schema';

export type MessageEntity = Omit<InferSchemaType<typeof messageSchema>, 'outbox'> & { outbox?: OutboxEntry[] };
