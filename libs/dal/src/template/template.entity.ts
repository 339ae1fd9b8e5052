import type { InferSchemaType } from 'mongoose';
import type { templateSchema } from './template.schema';

export type TemplateEntity = InferSchemaType<typeof templateSchema>;
