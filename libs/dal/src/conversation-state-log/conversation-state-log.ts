import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { ConversationModel, ConversationStateLogModel } from '../models';
import { isDuplicateKeyError } from '../shared/duplicate-key';

/*
 * Changes of a conversation's owner and inbox status, decided by inserting the next entry of a
 * per-conversation log (see conversationStateLogSchema): one writer per seq on FerretDB 1.x, whose
 * conditional updates are not atomic, and on MongoDB alike.
 */

export type ConversationStateField = 'owner' | 'inbox_status';

export interface ConversationStateEntry {
  /** 0: no change recorded yet (the conversation document holds the value). */
  seq: number;
  value: string | null;
  data: Record<string, unknown> | null;
}

export interface ConversationStateChange {
  value: string | null;
  previous: string | null;
  data?: Record<string, unknown> | null;
  actor?: Record<string, unknown> | null;
  now: Date;
}

export function conversationStateEntryId(conversationId: string, field: ConversationStateField, seq: number): string {
  return `${conversationId}:${field}:${seq}`;
}

/** The latest recorded entry, or null before the conversation's first recorded change of the field. */
export async function latestConversationState(scope: BusinessScope, conversationId: string, field: ConversationStateField): Promise<ConversationStateEntry | null> {
  const [latest] = await ConversationStateLogModel.find(scopedFilter(scope, { conversation_id: conversationId, field }), { seq: 1, value: 1, data: 1 })
    .sort({ seq: -1 })
    .limit(1)
    .lean<{ seq: number; value?: string | null; data?: Record<string, unknown> | null }[]>();
  return latest ? { seq: latest.seq, value: latest.value ?? null, data: latest.data ?? null } : null;
}

/** Inserts entry `afterSeq + 1`: true for the one writer that read entry afterSeq, false when another took the seq. */
export async function appendConversationState(scope: BusinessScope, conversationId: string, field: ConversationStateField, afterSeq: number, change: ConversationStateChange): Promise<boolean> {
  const seq = afterSeq + 1;
  try {
    await ConversationStateLogModel.create({
      _id: conversationStateEntryId(conversationId, field, seq),
      business_id: scope.businessId,
      conversation_id: conversationId,
      field,
      seq,
      value: change.value,
      previous: change.previous,
      data: change.data ?? null,
      actor: change.actor ?? null,
      created_at: change.now,
    });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** The conversation document fields that copy each logged field's latest entry. */
const MIRRORED_FIELDS: Record<ConversationStateField, (entry: ConversationStateEntry) => Record<string, unknown>> = {
  owner: (entry) => ({ ai_employee_id: entry.value }),
  inbox_status: (entry) => ({ inbox_status: entry.value, pending_reason: (entry.data?.['pending_reason'] as string | null | undefined) ?? null }),
};

/**
 * Brings the conversation document's copies of every logged field up to date with the logs. A
 * concurrent update of the same conversation (FerretDB rewrites whole documents) can put an older
 * copy of ANY field back, e.g. an inbox-status write undoing an owner write it raced with, so each
 * writer checks and rewrites all logged fields, reading again after each write: the last writer's
 * check leaves every copy equal to its log.
 */
export async function mirrorConversationState(scope: BusinessScope, conversationId: string, now: Date): Promise<void> {
  for (let round = 0; round < 6; round += 1) {
    const wanted: Record<string, unknown> = {};
    for (const field of Object.keys(MIRRORED_FIELDS) as ConversationStateField[]) {
      const latest = await latestConversationState(scope, conversationId, field);
      if (latest) Object.assign(wanted, MIRRORED_FIELDS[field](latest));
    }
    if (Object.keys(wanted).length === 0) return;
    const stored = await ConversationModel.findOne(scopedFilter(scope, { _id: conversationId }), Object.fromEntries(Object.keys(wanted).map((key) => [key, 1]))).lean<Record<string, unknown>>();
    if (!stored) return;
    if (Object.entries(wanted).every(([key, value]) => (stored[key] ?? null) === value)) return;
    await ConversationModel.updateOne(scopedFilter(scope, { _id: conversationId }), { $set: { ...wanted, updated_at: now } });
  }
}
