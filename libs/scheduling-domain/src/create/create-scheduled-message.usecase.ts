import type { AiScheduleRequest, HumanScheduleRequest } from '@cmsg/api-schemas';
import { scheduleHistoryEntry } from '@cmsg/conversation-commands';
import { type BusinessScope, businessScope } from '@cmsg/dal';
import type { CreatedScheduledMessage } from '@cmsg/proto';
import { businessTimeZone } from '../business-time';
import type { BusinessStore, ConversationStore, ScheduleStore, SchedulingPorts } from '../ports';
import { assertWithinScheduleHorizon, localScheduleInstant } from '../schedule-time/local-schedule-time';
import type { CreateScheduledMessageCommand } from './create-scheduled-message.command';
import { approvedTemplate, assertAiEmployeeExists, assertFileConfirmed, assertQuickReplyExists } from './schedule-resources';
import { assertHumanScheduleSendable, assertTemplateVariables, scheduleExecutorFor } from './schedule-rules';
import { type NewSchedule, scheduledUuidReused, storePendingSchedule } from './store-pending-schedule';

export type CreateScheduledMessageDependencies = Pick<
  SchedulingPorts,
  'conversationContext' | 'aiEmployees' | 'quickReplies' | 'templates' | 'files' | 'events' | 'clock' | 'ids'
> & {
  schedules: Pick<ScheduleStore, 'idTakenInAnyBusiness' | 'pendingOfConversation' | 'insertPending' | 'cancelPending'>;
  conversations: Pick<ConversationStore, 'findById'>;
  businesses: Pick<BusinessStore, 'findById'>;
};

/** What the branch checks read: the objects a schedule names. */
type ReferenceLookups = Pick<CreateScheduledMessageDependencies, 'aiEmployees' | 'quickReplies' | 'templates' | 'files'>;

/** The executor-specific fields of the stored schedule. */
type BranchFields = Pick<NewSchedule, 'ai_employee_id' | 'reason' | 'template_id' | 'message_kind' | 'payload' | 'template_variables' | 'template_header' | 'template_button_parameters'>;

/**
 * SPEC 4.1 / CONTRACT 3: validates the request against the conversation as it is now, then makes
 * the schedule the conversation's one pending schedule, cancelling the previous one.
 * Order: conversation reference, scheduled_uuid reuse, schedule time, owner, referenced objects,
 * window; nothing is written before every check passed.
 */
export async function createScheduledMessage(command: CreateScheduledMessageCommand, dependencies: CreateScheduledMessageDependencies): Promise<CreatedScheduledMessage> {
  const { caller, request } = command;
  const { schedules, clock } = dependencies;
  const scope = businessScope(caller.business_id);
  const context = await dependencies.conversationContext.getConversationContext({ caller, conversation: request.conversation });

  if (request.scheduled_uuid && (await schedules.idTakenInAnyBusiness(request.scheduled_uuid))) throw scheduledUuidReused(request.scheduled_uuid);

  const timeZone = await businessTimeZone(dependencies.businesses, scope);
  const scheduleAt = localScheduleInstant(request.schedule_at, timeZone);
  assertWithinScheduleHorizon(scheduleAt, Date.parse(context.now));

  const owner = context.ai_employee_uuid ?? null;
  const branch =
    request.executor_kind === 'ai_employee' ? await aiBranchFields(dependencies, scope, request, owner) : await humanBranchFields(dependencies, scope, request, owner, context.window_status);

  const now = clock.now();
  const author = { type: 'api_token' as const, uuid: caller.token_uuid || null };
  const schedule: NewSchedule = {
    _id: request.scheduled_uuid ?? dependencies.ids.newId(),
    conversation_id: context.uuid,
    status: 'pending',
    executor_kind: request.executor_kind,
    ...branch,
    schedule_at: scheduleAt,
    schedule_local: { date: request.schedule_at.date, time: request.schedule_at.time, time_zone: timeZone },
    cancel_on_customer_reply: request.cancel_on_customer_reply,
    is_tester: context.is_tester,
    created_by_token_id: caller.token_uuid || null,
    author,
    error: null,
    history: [scheduleHistoryEntry('created', 'pending', now, { actor: author, detail: { schedule_at: scheduleAt.toISOString() } })],
    fired_at: null,
    fire_claim: null,
    delivery: null,
    note_id: null,
    created_at: now,
    updated_at: now,
  };
  await storePendingSchedule(dependencies, scope, schedule, owner, author);
  return { uuid: schedule._id, executor_kind: schedule.executor_kind, schedule_at: scheduleAt.toISOString(), status: 'pending' };
}

async function aiBranchFields(lookups: ReferenceLookups, scope: BusinessScope, request: AiScheduleRequest, assignedAiEmployeeId: string | null): Promise<BranchFields> {
  const given = request.ai_employee_uuid ?? null;
  if (given) await assertAiEmployeeExists(lookups.aiEmployees, scope, given);
  const aiEmployeeId = scheduleExecutorFor('ai_employee', assignedAiEmployeeId, given);
  const templateId = request.template_uuid ?? null;
  if (templateId) await approvedTemplate(lookups.templates, scope, templateId, 'template_uuid');
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
  lookups: ReferenceLookups,
  scope: BusinessScope,
  request: HumanScheduleRequest,
  assignedAiEmployeeId: string | null,
  windowStatus: string,
): Promise<BranchFields> {
  const { files } = lookups;
  scheduleExecutorFor('human_user', assignedAiEmployeeId, null);
  const template = await approvedTemplate(lookups.templates, scope, request.template_uuid, 'template_uuid');
  assertTemplateVariables('template_variables', template.name, template.variable_count, request.template_variables);
  if (request.template_header && request.template_header.type !== 'text') {
    await assertFileConfirmed(files, scope, request.template_header.file_uuid, 'template_header.file_uuid');
  }
  const { payload } = request;
  switch (payload.kind) {
    case 'quick_reply':
      await assertQuickReplyExists(lookups.quickReplies, scope, payload.quick_reply_uuid);
      break;
    case 'template': {
      const payloadTemplate = await approvedTemplate(lookups.templates, scope, payload.template_uuid, 'payload.template_uuid');
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
