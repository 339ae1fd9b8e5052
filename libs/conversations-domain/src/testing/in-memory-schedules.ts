import type { ScheduleHistoryEntry } from '@cmsg/conversation-commands';
import type { BusinessScope, OutboxEntry, ScheduledMessageEntity } from '@cmsg/dal';
import type { PendingSchedules } from '../ai-assignment/ai-assignment-ports';

/** A pending AI schedule; `overrides` sets what a spec cares about. */
export function scheduleRow(overrides: Partial<ScheduledMessageEntity> & Pick<ScheduledMessageEntity, '_id' | 'business_id' | 'conversation_id'>): ScheduledMessageEntity {
  const at = new Date('2026-11-01T00:00:00.000Z');
  return {
    status: 'pending',
    executor_kind: 'ai_employee',
    ai_employee_id: 'ai-old',
    reason: 'follow_up',
    template_id: null,
    message_kind: null,
    payload: null,
    template_variables: [],
    template_header: null,
    template_button_parameters: [],
    schedule_at: at,
    schedule_local: null,
    cancel_on_customer_reply: false,
    is_tester: false,
    created_by_token_id: null,
    author: { type: 'api_token', uuid: 'tok-1' },
    error: null,
    history: [],
    fired_at: null,
    fire_claim: null,
    delivery: null,
    note_id: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  } as ScheduledMessageEntity;
}

/** The scheduled messages of every business in memory, with the repository's conditional changes of a pending one. */
export class InMemorySchedules implements PendingSchedules {
  readonly rows: ScheduledMessageEntity[] = [];

  async pendingOfConversation(scope: BusinessScope, conversationId: string): Promise<ScheduledMessageEntity | null> {
    return this.rows.find((row) => row.business_id === scope.businessId && row.conversation_id === conversationId && row.status === 'pending') ?? null;
  }

  async cancelPending(scope: BusinessScope, id: string, entry: ScheduleHistoryEntry, event: OutboxEntry): Promise<ScheduledMessageEntity | null> {
    const row = this.pending(scope, id);
    if (!row) return null;
    Object.assign(row, { status: 'cancelled', updated_at: entry.at, history: [...row.history, entry], outbox: [...(row.outbox ?? []), event] });
    return { ...row };
  }

  async reassignPending(scope: BusinessScope, id: string, fields: Partial<ScheduledMessageEntity>, entry: ScheduleHistoryEntry): Promise<boolean> {
    const row = this.pending(scope, id);
    if (!row) return false;
    Object.assign(row, fields, { updated_at: entry.at, history: [...row.history, entry] });
    return true;
  }

  private pending(scope: BusinessScope, id: string): ScheduledMessageEntity | undefined {
    return this.rows.find((row) => row.business_id === scope.businessId && row._id === id && row.status === 'pending');
  }
}
