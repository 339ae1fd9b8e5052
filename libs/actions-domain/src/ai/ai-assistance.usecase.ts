import { randomUUID } from 'node:crypto';
import type { AiAssistanceResponse, Caller, ConversationReference, ObjectRef } from '@cmsg/proto';
import { AI_RUN_BUDGET_MS } from '../limits';
import type { ConversationActionsPort } from '../ports';
import type { AiPipelines } from './ai-pipelines';

export interface AiAssistanceRequestInput {
  caller: Caller;
  conversation: ConversationReference;
  employee: ObjectRef;
  prompt: string;
}

/** POST /conversation/ai-assistance: synchronous; the answer is stored as a context note. */
export async function requestAiAssistance(
  dependencies: { actions: Pick<ConversationActionsPort, 'getConversationContext'>; ai: AiPipelines },
  input: AiAssistanceRequestInput,
): Promise<AiAssistanceResponse> {
  const context = await dependencies.actions.getConversationContext({ caller: input.caller, conversation: input.conversation });
  const result = await dependencies.ai.assist({
    caller: input.caller,
    conversationUuid: context.uuid,
    employee: input.employee,
    prompt: input.prompt,
    operationId: `assistance:${randomUUID()}`,
    budgetMs: AI_RUN_BUDGET_MS,
  });
  return { answer: result.answer, note: { uuid: result.noteUuid } };
}
