import type { InferSchemaType } from 'mongoose';
import type { contactSchema } from './contact.schema';

export type ContactEntity = InferSchemaType<typeof contactSchema>;
