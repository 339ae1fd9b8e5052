import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

/*
 * Advances of a business's tester clock as an append-only log (`<business>:<seq>`, inserted only by
 * the writer that read entry seq - 1; a concurrent `$inc` loses advances on FerretDB 1.x). Each
 * entry holds the resulting offset; business.tester_clock_offset_ms mirrors the latest.
 */
export const testerClockAdvanceSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    seq: { type: Number, required: true },
    advance_ms: { type: Number, required: true },
    offset_ms: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Latest advance of a business.
testerClockAdvanceSchema.index({ business_id: 1, seq: -1 });

export const TesterClockAdvanceModel = model('TesterClockAdvance', testerClockAdvanceSchema, 'tester_clock_advances');
