import type { InferSchemaType } from 'mongoose';
import type { paymentSchema } from './payment.schema';

export type PaymentEntity = InferSchemaType<typeof paymentSchema>;
