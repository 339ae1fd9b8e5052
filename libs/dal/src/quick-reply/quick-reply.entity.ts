import type { InferSchemaType } from 'mongoose';
import type { quickReplySchema } from './quick-reply.schema';

export type QuickReplyEntity = InferSchemaType<typeof quickReplySchema>;
