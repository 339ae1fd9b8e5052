import { CatalogError } from '@cmsg/errors';

export type ExecutorKind = 'ai_employee' | 'human_user';

/**
 * SPEC 4.1 rule 1, on the conversation's owner as read. AI branch: an AI must be assigned
 * (none assigned and none given: NO_AI_EMPLOYEE_ASSIGNED; none assigned but one given: the
 * requirement "the conversation has an AI assigned" is violated, OWNER_MISMATCH) and a given
 * ai_employee_uuid must be the assigned one (OWNER_MISMATCH). Human branch: no AI may be
 * assigned (OWNER_MISMATCH). Answers the AI employee that will fire an AI schedule.
 */
export function scheduleExecutorFor(kind: ExecutorKind, assignedAiEmployeeId: string | null, givenAiEmployeeId: string | null): string | null {
  if (kind === 'human_user') {
    if (assignedAiEmployeeId) throw new CatalogError('OWNER_MISMATCH', 'The conversation has an AI employee assigned; a human_user schedule needs a human-owned conversation.');
    return null;
  }
  if (!assignedAiEmployeeId) {
    if (!givenAiEmployeeId) throw new CatalogError('NO_AI_EMPLOYEE_ASSIGNED', 'No AI employee is assigned to the conversation and none was given.');
    throw new CatalogError('OWNER_MISMATCH', `AI employee ${givenAiEmployeeId} is not assigned to the conversation, which has no AI employee assigned.`);
  }
  if (givenAiEmployeeId && givenAiEmployeeId !== assignedAiEmployeeId) {
    throw new CatalogError('OWNER_MISMATCH', `AI employee ${givenAiEmployeeId} is not the one assigned to the conversation.`);
  }
  return assignedAiEmployeeId;
}

/** SPEC 4.1 rule 2: with the window closed when scheduling, only a template can be scheduled on the human branch. */
export function assertHumanScheduleSendable(messageKind: string, windowStatus: string): void {
  if (windowStatus !== 'open' && messageKind !== 'template') {
    throw new CatalogError('WINDOW_CLOSED', `The 24-hour window is closed now; schedule message_kind template (got ${messageKind}).`);
  }
}

export interface TemplateVariableValue {
  index: number;
  value: string;
}

/**
 * SPEC 4.1: invalid template variables are 400 INVALID_REQUEST when scheduling (the send itself
 * would answer TEMPLATE_VARIABLES_INVALID): exactly indexes 1..variable_count, each once, none empty.
 */
export function assertTemplateVariables(field: string, templateName: string, variableCount: number, variables: readonly TemplateVariableValue[]): void {
  const invalid = (why: string) =>
    new CatalogError('INVALID_REQUEST', `Invalid request: ${field}: TEMPLATE_VARIABLES_INVALID: template ${templateName} ${why}.`);
  if (variables.length !== variableCount) throw invalid(`expects ${variableCount} variable${variableCount === 1 ? '' : 's'}, got ${variables.length}`);
  const seen = new Set<number>();
  for (const variable of variables) {
    if (variable.index < 1 || variable.index > variableCount) throw invalid(`has no variable {{${variable.index}}}`);
    if (seen.has(variable.index)) throw invalid(`got variable {{${variable.index}}} twice`);
    if (variable.value.trim() === '') throw invalid(`got an empty value for {{${variable.index}}}`);
    seen.add(variable.index);
  }
}
