import type { InferSchemaType } from 'mongoose';
import type { apiTokenSchema } from './api-token.schema';

export type ApiTokenEntity = InferSchemaType<typeof apiTokenSchema>;
