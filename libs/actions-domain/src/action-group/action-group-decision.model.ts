import { Schema, model } from 'mongoose';
import type { ActionErrorRecord, ActionStatus, GroupStatus } from './action-group.model';

export const DECISION_KINDS = ['started', 'result', 'escalated', 'finished'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/**
 * What happened to an action group, each fact decided once by inserting a document with a fixed
 * _id (collection action_group_decisions): `<group>:started`, `<group>:<index>:result`,
 * `<group>:escalated`, `<group>:finished`. FerretDB 1.x applies updates as unisolated
 * read-modify-writes of the whole document (concurrent writers lose each other's changes and
 * several compare-and-sets "win"), while an insert of an existing _id always fails; so two
 * runners of one group (a partition moving during a rebalance) record one result per action,
 * keep each other's results, and agree on the group's final status, on MongoDB as well.
 * The group document mirrors the decisions for readers of the raw collection; the repository
 * reads the decisions themselves.
 */
const actionGroupDecisionSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    group_id: { type: String, required: true },
    kind: { type: String, enum: DECISION_KINDS, required: true },
    index: { type: Number, default: null },
    // result: the action's final status; finished: the group's.
    status: { type: String, default: null },
    error: { type: Schema.Types.Mixed, default: null },
    started_at: { type: Date, default: null },
    // started: the group's first start; result: the action's end; finished: the group's end.
    at: { type: Date, required: true },
  },
  { versionKey: false, timestamps: false },
);
// The decisions of one group (every read of a group).
actionGroupDecisionSchema.index({ group_id: 1 });

export const ActionGroupDecisionModel = model('ActionGroupDecision', actionGroupDecisionSchema, 'action_group_decisions');

export interface ActionGroupDecision {
  _id: string;
  business_id: string;
  group_id: string;
  kind: DecisionKind;
  index: number | null;
  status: ActionStatus | Exclude<GroupStatus, 'processing'> | null;
  error: ActionErrorRecord | null;
  started_at: Date | null;
  at: Date;
}

export const decisionIds = {
  started: (groupId: string) => `${groupId}:started`,
  result: (groupId: string, index: number) => `${groupId}:${index}:result`,
  escalated: (groupId: string) => `${groupId}:escalated`,
  finished: (groupId: string) => `${groupId}:finished`,
};
