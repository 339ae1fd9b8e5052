import type { ScheduledMessageEntity } from '@cmsg/dal';
import { storedScheduleTemplateToPayload } from '@cmsg/message-codec';

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
  return {
    executor_kind: 'human_user',
    ai_employee_id: null,
    template_id: owner.fallbackTemplateId,
    message_kind: 'template',
    payload: storedScheduleTemplateToPayload(owner.fallbackTemplateId, schedule),
  };
}
