import { Schema, model } from 'mongoose';

/** Action status while a group runs; `running` shows as `pending` publicly (CONTRACT 4). */
export const ACTION_STATUSES = ['pending', 'running', 'succeeded', 'noop', 'failed', 'skipped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
export const FINAL_ACTION_STATUSES: readonly ActionStatus[] = ['succeeded', 'noop', 'failed', 'skipped'];

export const GROUP_STATUSES = ['processing', 'succeeded', 'failed'] as const;
export type GroupStatus = (typeof GROUP_STATUSES)[number];

const errorSchema = new Schema({ code: { type: String, required: true }, message: { type: String, required: true } }, { _id: false });

const actionRecordSchema = new Schema(
  {
    index: { type: Number, required: true },
    type: { type: String, required: true },
    // The validated public action object, as submitted.
    params: { type: Schema.Types.Mixed, required: true },
    status: { type: String, enum: ACTION_STATUSES, required: true },
    error: { type: errorSchema, default: null },
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
  },
  { _id: false },
);

/**
 * One accepted action group (collection action_groups); _id is the group uuid. Written first by the
 * synchronous phase (or, if that write was lost, from the command by the runner); every later
 * change is a single-document update, so a re-run after a crash resumes from what is recorded.
 */
const actionGroupSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    token_uuid: { type: String, default: '' },
    request_id: { type: String, default: null },
    source: { type: String, required: true },
    depth: { type: Number, required: true },
    stop_on_error: { type: Boolean, required: true },
    escalate_on_error: { type: Boolean, required: true },
    status: { type: String, enum: GROUP_STATUSES, required: true },
    // Set once the conversation was escalated for this group (at most one escalation per group).
    escalated: { type: Boolean, required: true, default: false },
    actions: { type: [actionRecordSchema], default: [] },
    created_at: { type: Date, required: true },
    // First execution start: the 800 s budget counts from here, across re-runs.
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
  },
  { versionKey: false, timestamps: false },
);
// Groups of a conversation, newest first (operations and support queries).
actionGroupSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });

export const ActionGroupModel = model('ActionGroup', actionGroupSchema, 'action_groups');

export interface ActionErrorRecord {
  code: string;
  message: string;
}

export interface ActionRecord {
  index: number;
  type: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  error: ActionErrorRecord | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** A group as the repository returns it: a plain object, never a mongoose document. */
export interface ActionGroupEntity {
  _id: string;
  business_id: string;
  conversation_id: string;
  token_uuid: string;
  request_id: string | null;
  source: string;
  depth: number;
  stop_on_error: boolean;
  escalate_on_error: boolean;
  status: GroupStatus;
  escalated: boolean;
  actions: ActionRecord[];
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}
