import type { AiScheduleRequest, HumanScheduleRequest } from '@cmsg/api-schemas';
import { scheduleDueMinute, scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, businessScope, latestScheduleSlot } from '@cmsg/dal';
import type { CreatedScheduledMessage } from '@cmsg/proto';
import { randomUUID } from 'node:crypto';
import { loadBusinessTime } from '../business-time';
import type { Clock, ConfirmedFileLookup, ConversationContextPort } from '../ports';
import { type StoredSchedule, type ScheduledMessageRepository } from '../scheduled-message.repository';
import { assertWithinScheduleHorizon, localScheduleInstant } from '../schedule-time/local-schedule-time';
import type { CreateScheduledMessageCommand } from './create-scheduled-message.command';
import { linkAsPendingSchedule } from './link-pending-schedule';
import { approvedTemplate, assertAiEmployeeExists, assertFileConfirmed, assertQuickReplyExists } from './schedule-resources';
import { assertHumanScheduleSendable, assertTemplateVariables, scheduleExecutorFor } from './schedule-rules';

export interface CreateScheduledMessageDependencies {
  conversations: ConversationContextPort;
  repository: ScheduledMessageRepository;
  files: ConfirmedFileLookup;
  clock: Clock;
}

/** The executor-specific fields of the stored schedule. */
type BranchFields = Pick<StoredSchedule, 'ai_employee_id' | 'reason' | 'template_id' | 'message_kind' | 'payload' | 'template_variables' | 'template_header' | 'template_button_parameters'>;

/**
 * SPEC 4.1 / CONTRACT 3: validates the request against the conversation as it is now, stores the
 * schedule and makes it the conversation's one pending schedule, cancelling the previous one.
 * Order: conversation reference, scheduled_uuid reuse, schedule time, owner, referenced objects,
 * window; nothing is written before every check passed.
 */
export async function createScheduledMessage(command: CreateScheduledMessageCommand, dependencies: CreateScheduledMessageDependencies): Promise<CreatedScheduledMessage> {
  const { caller, request } = command;
  const { repository, clock } = dependencies;
  const scope = businessScope(caller.business_id);
  const context = await dependencies.conversations.getConversationContext({ caller, conversation: request.conversation });

  if (request.scheduled_uuid && (await repository.idExists(request.scheduled_uuid))) throw scheduledUuidReused(request.scheduled_uuid);

  const { timeZone } = await loadBusinessTime(scope);
  const scheduleAt = localScheduleInstant(request.schedule_at, timeZone);
  assertWithinScheduleHorizon(scheduleAt, Date.parse(context.now));

  // Read before the rules are checked: the slot compare-and-set fails if anything moved since.
  const slot = await latestScheduleSlot(scope, context.uuid);
  const owner = await repository.conversationOwner(scope, context.uuid);
  if (!owner) throw new CatalogError('CONVERSATION_NOT_FOUND');
  const branch =
    request.executor_kind === 'ai_employee'
      ? await aiBranchFields(scope, request, owner.aiEmployeeId)
      : await humanBranchFields(scope, request, owner.aiEmployeeId, context.window_status, dependencies.files);

  const now = clock.now();
  const author = { type: 'api_token' as const, uuid: caller.token_uuid || null };
  const schedule: StoredSchedule = {
    _id: request.scheduled_uuid ?? randomUUID(),
    business_id: scope.businessId,
    conversation_id: context.uuid,
    status: 'pending',
    executor_kind: request.executor_kind,
    ...branch,
    schedule_at: scheduleAt,
    due_minute: scheduleDueMinute(scheduleAt),
    schedule_local: { date: request.schedule_at.date, time: request.schedule_at.time, time_zone: timeZone },
    cancel_on_customer_reply: request.cancel_on_customer_reply,
    is_tester: context.is_tester,
    created_by_token_id: caller.token_uuid || null,
    author,
    error: null,
    history: [scheduleHistoryEntry('created', 'pending', now, { actor: author, detail: { schedule_at: scheduleAt.toISOString() } })],
    fire_lease_until: null,
    fired_at: null,
    fire_owner: null,
    fire_attempts: 0,
    delivery: null,
    note_id: null,
    created_at: now,
    updated_at: now,
  };
  // The unique _id settles a race between two creates with the same scheduled_uuid.
  if (!(await repository.insert(schedule))) throw scheduledUuidReused(schedule._id);
  await linkAsPendingSchedule(repository, scope, schedule, slot, owner.aiEmployeeId, { actor: author, now: () => clock.now() });
  return { uuid: schedule._id, executor_kind: schedule.executor_kind, schedule_at: scheduleAt.toISOString(), status: 'pending' };
}

function scheduledUuidReused(id: string): CatalogError {
  return new CatalogError('SCHEDULE_CONFLICT', `scheduled_uuid ${id} was already used; retry with another scheduled_uuid or none.`);
}

async function aiBranchFields(scope: BusinessScope, request: AiScheduleRequest, assignedAiEmployeeId: string | null): Promise<BranchFields> {
  const given = request.ai_employee_uuid ?? null;
  if (given) await assertAiEmployeeExists(scope, given);
  const aiEmployeeId = scheduleExecutorFor('ai_employee', assignedAiEmployeeId, given);
  const templateId = request.template_uuid ?? null;
  if (templateId) await approvedTemplate(scope, templateId, 'template_uuid');
  return {
    ai_employee_id: aiEmployeeId,
    reason: request.reason,
    template_id: templateId,
    message_kind: null,
    payload: null,
    template_variables: [],
    template_header: null,
    template_button_parameters: [],
  };
}

async function humanBranchFields(
  scope: BusinessScope,
  request: HumanScheduleRequest,
  assignedAiEmployeeId: string | null,
  windowStatus: string,
  files: ConfirmedFileLookup,
): Promise<BranchFields> {
  scheduleExecutorFor('human_user', assignedAiEmployeeId, null);
  const template = await approvedTemplate(scope, request.template_uuid, 'template_uuid');
  assertTemplateVariables('template_variables', template.name, template.variable_count, request.template_variables);
  if (request.template_header && request.template_header.type !== 'text') {
    await assertFileConfirmed(files, scope, request.template_header.file_uuid, 'template_header.file_uuid');
  }
  const { payload } = request;
  switch (payload.kind) {
    case 'quick_reply':
      await assertQuickReplyExists(scope, payload.quick_reply_uuid);
      break;
    case 'template': {
      const payloadTemplate = await approvedTemplate(scope, payload.template_uuid, 'payload.template_uuid');
      assertTemplateVariables('payload.variables', payloadTemplate.name, payloadTemplate.variable_count, payload.variables);
      if (payload.header && payload.header.type !== 'text') await assertFileConfirmed(files, scope, payload.header.file_uuid, 'payload.header.file_uuid');
      break;
    }
    case 'message':
      if (payload.media) await assertFileConfirmed(files, scope, payload.media.file_uuid, 'payload.media.file_uuid');
      break;
  }
  assertHumanScheduleSendable(request.message_kind, windowStatus);
  return {
    ai_employee_id: null,
    reason: null,
    template_id: request.template_uuid,
    message_kind: request.message_kind,
    payload,
    template_variables: request.template_variables,
    template_header: request.template_header ?? null,
    template_button_parameters: request.template_button_parameters,
  };
}
