import type { InferSchemaType } from 'mongoose';
import type { webhookSchema } from './webhook.schema';

export type WebhookEntity = InferSchemaType<typeof webhookSchema>;
