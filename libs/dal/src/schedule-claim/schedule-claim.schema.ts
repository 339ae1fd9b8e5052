import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

/*
 * Coordination of scheduled messages. FerretDB 1.x applies updates as read-modify-write of the whole
 * document without isolation: concurrent findOneAndUpdate / updateOne on one document can both
 * "match" and the last write wins (lost updates), while an insert into a unique _id has exactly one
 * winner. So every decision that must be taken once is an insert with a deterministic _id:
 * `schedule_claims` (fate, firing attempts, delivery path, outcome of a schedule) and
 * `conversation_schedule_slots` (an append-only log per conversation whose latest entry names its
 * one pending schedule; conversation.pending_schedule_id mirrors it).
 */
export const scheduleClaimSchema = new Schema(
  {
    // `<kind>:<schedule uuid>[:<attempt>]`
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    schedule_id: { type: String, required: true },
    kind: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Claims of a schedule (its record view and the firer's checks).
scheduleClaimSchema.index({ schedule_id: 1 });

export const ScheduleClaimModel = model('ScheduleClaim', scheduleClaimSchema, 'schedule_claims');
