import type { ScheduledMessageEntity } from '@cmsg/dal';

/** The schedule fields an owner change touches. */
export type ReassignableSchedule = Pick<ScheduledMessageEntity, 'executor_kind' | 'template_id' | 'template_variables' | 'template_header' | 'template_button_parameters'>;

/** Who fires the schedule after the owner change. */
export type NewScheduleOwner = { kind: 'ai_employee'; aiEmployeeId: string } | { kind: 'human_user'; fallbackTemplateId: string };

/**
 * CONTRACT 3: `reassign` keeps the schedule pending for the new owner. Another AI employee fires it
 * as an AI schedule; humans fire its fallback template (message_kind template, payload built from
 * the schedule's template fields).
 */
export function reassignedScheduleFields(schedule: ReassignableSchedule, owner: NewScheduleOwner): Partial<ScheduledMessageEntity> {
  if (owner.kind === 'ai_employee') return { executor_kind: 'ai_employee', ai_employee_id: owner.aiEmployeeId };
  const variables = schedule.template_variables ?? [];
  const buttonParameters = schedule.template_button_parameters ?? [];
  return {
    executor_kind: 'human_user',
    ai_employee_id: null,
    template_id: owner.fallbackTemplateId,
    message_kind: 'template',
    payload: {
      kind: 'template',
      template_uuid: owner.fallbackTemplateId,
      variables,
      ...(schedule.template_header ? { header: schedule.template_header } : {}),
      ...(buttonParameters.length > 0 ? { button_parameters: buttonParameters } : {}),
    },
  };
}
