import type { InferSchemaType } from 'mongoose';
import type { aiEmployeeSchema } from './ai-employee.schema';

export type AiEmployeeEntity = InferSchemaType<typeof aiEmployeeSchema>;
