import { type BusinessScope, type ConversationStateField, appendConversationState, latestConversationState } from '@cmsg/dal';
import type { StoredConversation } from './resolve-conversation-reference';

/** Rounds a change waits for other changes of the same field; each round one writer wins. */
const MAX_ROUNDS = 50;

export interface ConversationStateDecision {
  /** False when the field already had the target value (nothing was recorded). */
  changed: boolean;
  /** The value the change replaced (or found). */
  previous: string | null;
  seq: number;
}

export interface ConversationStateChangeOptions {
  data?: Record<string, unknown> | null;
  actor?: { type: string; uuid: string | null } | null;
  now: Date;
  /** Checked against the value about to be replaced, before each attempt (throws to refuse). */
  guard?: (current: string | null) => Promise<void> | void;
}

function documentValue(conversation: StoredConversation, field: ConversationStateField): string | null {
  return field === 'owner' ? conversation.ai_employee_id ?? null : conversation.inbox_status;
}

/**
 * Sets the conversation's owner or inbox status to `target` unless it already is: the change is
 * the next entry of the field's log (libs/dal conversation-state-log), so of concurrent callers
 * exactly one records each real change, and the others see it and answer "already so".
 */
export async function decideConversationState(
  scope: BusinessScope,
  conversation: StoredConversation,
  field: ConversationStateField,
  target: string | null,
  options: ConversationStateChangeOptions,
): Promise<ConversationStateDecision> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const latest = await latestConversationState(scope, conversation._id, field);
    const seq = latest?.seq ?? 0;
    const current = latest ? latest.value : documentValue(conversation, field);
    if (current === target) return { changed: false, previous: current, seq };
    await options.guard?.(current);
    const change = { value: target, previous: current, data: options.data ?? null, actor: options.actor ?? null, now: options.now };
    if (await appendConversationState(scope, conversation._id, field, seq, change)) return { changed: true, previous: current, seq: seq + 1 };
  }
  throw new Error(`conversation ${conversation._id}: no ${field} change won in ${MAX_ROUNDS} rounds`);
}

/** The field's value as its log says (the conversation document's copy may lag behind). */
export async function currentConversationState(scope: BusinessScope, conversation: StoredConversation, field: ConversationStateField): Promise<string | null> {
  const latest = await latestConversationState(scope, conversation._id, field);
  return latest ? latest.value : documentValue(conversation, field);
}
