import { Schema, model } from 'mongoose';
import { documentOptions, tenantDocumentFields } from '../shared/document-fields';

export const paymentSchema = new Schema(
  {
    ...tenantDocumentFields,
    conversation_id: { type: String, required: true },
    amount: { type: String, default: null },
    currency: { type: String, default: null },
    reference: { type: String, default: null },
    link: { type: String, default: null },
    due_date: { type: String, default: null },
    status: { type: String, required: true, default: 'open' },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// A payment marker's payment by uuid (within its conversation); seed upserts.
paymentSchema.index({ business_id: 1, _id: 1 }, { unique: true });
// The latest open payment of a conversation.
paymentSchema.index({ business_id: 1, conversation_id: 1, status: 1, created_at: -1, _id: -1 });

export const PaymentModel = model('Payment', paymentSchema, 'payments');
