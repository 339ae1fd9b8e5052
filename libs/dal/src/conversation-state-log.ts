import { type BusinessScope, scopedFilter } from './business-scope';
import { ConversationModel, ConversationStateLogModel } from './models';

/*
 * Changes of a conversation's owner and inbox status, decided by inserting the next entry of a
 * per-conversation log (see conversationStateLogSchema): one writer per seq on FerretDB 1.x, whose
 * conditional updates are not atomic, and on MongoDB alike.
 */

const DUPLICATE_KEY = 11000;

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
    if ((error as { code?: unknown }).code === DUPLICATE_KEY) return false;
    throw error;
  }
}

/**
 * Brings the conversation document's copy of the field up to date with the log. A concurrent update
 * of the same conversation (FerretDB rewrites whole documents) can put an older copy back, so the
 * copy is read again after each write and rewritten while it differs from the latest entry.
 */
export async function mirrorConversationState(
  scope: BusinessScope,
  conversationId: string,
  field: ConversationStateField,
  fieldsOf: (entry: ConversationStateEntry) => Record<string, unknown>,
  now: Date,
): Promise<void> {
  for (let round = 0; round < 4; round += 1) {
    const latest = await latestConversationState(scope, conversationId, field);
    if (!latest) return;
    const wanted = fieldsOf(latest);
    const stored = await ConversationModel.findOne(scopedFilter(scope, { _id: conversationId }), Object.fromEntries(Object.keys(wanted).map((key) => [key, 1]))).lean<Record<string, unknown>>();
    if (!stored) return;
    if (Object.entries(wanted).every(([key, value]) => (stored[key] ?? null) === value)) return;
    await ConversationModel.updateOne(scopedFilter(scope, { _id: conversationId }), { $set: { ...wanted, updated_at: now } });
  }
}
