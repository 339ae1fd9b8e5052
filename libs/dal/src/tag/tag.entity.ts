import type { InferSchemaType } from 'mongoose';
import type { tagSchema } from './tag.schema';

export type TagEntity = InferSchemaType<typeof tagSchema>;
