import type { InferSchemaType } from 'mongoose';
import type { businessSchema } from './business.schema';

export type BusinessEntity = InferSchemaType<typeof businessSchema> & { _id: string };
