import type { TimelineEntry, TimelineRole } from '@cmsg/ai-provider';
import { CatalogError } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import type { AiEmployee, Caller, ObjectRef, RecentTimeline } from '@cmsg/proto';
import { AI_TIMELINE_LIMIT, MAX_MESSAGE_TEXT, MAX_NOTE_TEXT } from '../limits';
import type { AiCompletionPort, Clock, ConversationServices } from '../ports';
import { assertVisionAvailable, assertWalletOpen } from './ai-guards';

export interface AiRunInput {
  caller: Caller;
  conversationUuid: string;
  /** Explicit employee; absent: the one assigned to the conversation when the run starts. */
  employee?: ObjectRef;
  /** Idempotency key: the reply is sent as `<operationId>:reply`, the charge applied once. */
  operationId: string;
  budgetMs: number;
  signal?: AbortSignal;
}

export interface AiRunResult {
  employeeUuid: string;
  replyMessageUuid: string | undefined;
}

export interface AiAssistanceInput {
  caller: Caller;
  conversationUuid: string;
  employee: ObjectRef;
  prompt: string;
  operationId: string;
  budgetMs: number;
  signal?: AbortSignal;
}

export interface AiAssistanceResult {
  answer: string;
  noteUuid: string;
}

const TIMELINE_ROLES: readonly string[] = ['customer', 'business', 'note'] satisfies TimelineRole[];

/** Why an assistance answer exists: it is read by the team, never sent to the customer. */
const ASSISTANCE_INSTRUCTIONS =
  'A member of the business team asks you about this conversation. Answer them directly and concisely; your answer is stored as an internal note and is never sent to the customer.';

/**
 * The AI pipelines of the actions-runner: a run (context, employee, timeline, completion, reply,
 * charge) and an assistance query (same call with the team's prompt; the answer becomes a note).
 * Every failure is a catalog error; the provider's are AI_EXECUTION_FAILED.
 */
export class AiPipelines {
  constructor(
    private readonly services: ConversationServices,
    private readonly provider: AiCompletionPort,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async run(input: AiRunInput): Promise<AiRunResult> {
    const { actions } = this.services;
    const context = await actions.getConversationContext({ caller: input.caller, conversation: { uuid: input.conversationUuid } });
    if (context.window_status !== 'open') {
      throw new CatalogError('WINDOW_CLOSED', 'The 24-hour messaging window is closed; the AI reply cannot be sent.');
    }
    const reference = input.employee ?? (context.ai_employee_uuid ? { uuid: context.ai_employee_uuid } : undefined);
    if (!reference) throw new CatalogError('NO_AI_EMPLOYEE_ASSIGNED', 'No AI employee is assigned to the conversation and none was given.');
    const employee = await actions.resolveAiEmployee({ caller: input.caller, ai_employee: reference });
    assertWalletOpen(employee);
    assertVisionAvailable(context);

    const completion = await this.complete(input.caller, input.conversationUuid, employee, [], input.budgetMs, input.signal);
    try {
      const sent = await actions.sendMessage({
        caller: input.caller,
        conversation: { uuid: input.conversationUuid },
        operation_id: `${input.operationId}:reply`,
        author: { type: 'ai_employee', uuid: employee.uuid },
        text: { body: completion.text.slice(0, MAX_MESSAGE_TEXT) },
      });
      return { employeeUuid: employee.uuid, replyMessageUuid: sent.message?.uuid };
    } finally {
      // Tokens were spent whether or not the reply went out.
      await this.charge(input.caller, employee, completion.usage.total_tokens, input.operationId);
    }
  }

  async assist(input: AiAssistanceInput): Promise<AiAssistanceResult> {
    const { actions, conversations } = this.services;
    const context = await actions.getConversationContext({ caller: input.caller, conversation: { uuid: input.conversationUuid } });
    const employee = await actions.resolveAiEmployee({ caller: input.caller, ai_employee: input.employee });
    assertWalletOpen(employee);
    assertVisionAvailable(context);

    const question: TimelineEntry = { role: 'customer', text: input.prompt, at: this.clock.now() };
    const completion = await this.complete(input.caller, input.conversationUuid, employee, [question], input.budgetMs, input.signal, ASSISTANCE_INSTRUCTIONS);
    try {
      const note = await conversations.addNote({ caller: input.caller, conversation: { uuid: input.conversationUuid }, note: completion.text.slice(0, MAX_NOTE_TEXT), operation_id: input.operationId });
      if (!note.note) throw new CatalogError('UPDATE_FAILED', 'The conversations service stored the note but did not return it.');
      return { answer: completion.text, noteUuid: note.note.uuid };
    } finally {
      await this.charge(input.caller, employee, completion.usage.total_tokens, input.operationId);
    }
  }

  private async complete(
    caller: Caller,
    conversationUuid: string,
    employee: AiEmployee,
    extra: TimelineEntry[],
    budgetMs: number,
    signal: AbortSignal | undefined,
    extraInstructions?: string,
  ) {
    const started = this.clock.now().getTime();
    const timeline = await this.services.actions.getRecentTimeline({ caller, conversation_uuid: conversationUuid, limit: AI_TIMELINE_LIMIT });
    const instructions = extraInstructions ? `${employee.instructions}\n\n${extraInstructions}`.trim() : employee.instructions;
    return this.provider.complete({
      model: employee.model,
      instructions,
      timeline: [...timelineEntries(timeline), ...extra],
      // The context reads above count against the pipeline's budget too.
      budgetMs: budgetMs - (this.clock.now().getTime() - started),
      ...(signal ? { signal } : {}),
    });
  }

  /** Idempotent by operation id. A failed charge never undoes a reply the customer already got: it is logged for billing follow-up. */
  private async charge(caller: Caller, employee: AiEmployee, tokens: number, operationId: string): Promise<void> {
    try {
      await this.services.actions.chargeAiWallet({ caller, ai_employee_uuid: employee.uuid, tokens, operation_id: operationId });
    } catch (error) {
      this.logger.error({ err: error, ai_employee_uuid: employee.uuid, tokens, operation_id: operationId }, 'AI wallet charge failed');
    }
  }
}

function timelineEntries(timeline: RecentTimeline): TimelineEntry[] {
  return timeline.entries
    .filter((entry) => TIMELINE_ROLES.includes(entry.role))
    .map((entry) => ({ role: entry.role as TimelineRole, text: entry.text, at: entry.at }));
}
