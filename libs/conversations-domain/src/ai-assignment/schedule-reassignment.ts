/** The schedule fields an owner change touches. */
export interface ReassignableSchedule {
  executor_kind: string;
  template_id?: string | null;
  template_variables?: unknown[] | null;
  template_header?: unknown;
  template_button_parameters?: unknown[] | null;
}

/** Who fires the schedule after the owner change. */
export type NewScheduleOwner = { kind: 'ai_employee'; aiEmployeeId: string } | { kind: 'human_user'; fallbackTemplateId: string };

/**
 * CONTRACT 3: `reassign` keeps the schedule pending for the new owner. Another AI employee fires it
 * as an AI schedule; humans fire its fallback template (message_kind template, payload built from
 * the schedule's template fields).
 */
export function reassignedScheduleFields(schedule: ReassignableSchedule, owner: NewScheduleOwner): Record<string, unknown> {
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
