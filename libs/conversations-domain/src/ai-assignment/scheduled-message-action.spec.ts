import { parseScheduledMessageAction, scheduleHandlingFor } from './scheduled-message-action';
import { reassignedScheduleFields } from './schedule-reassignment';

describe('scheduled_message_action', () => {
  it.each(['reassign', 'cancel'] as const)('accepts %s', (value) => {
    expect(parseScheduledMessageAction(value)).toBe(value);
  });

  it('is optional', () => {
    expect(parseScheduledMessageAction(undefined)).toBeUndefined();
  });

  it.each(['', 'Cancel', 'keep', 'delete'])('rejects %j with SCHEDULED_MESSAGE_ACTION_INVALID', (value) => {
    expect(() => parseScheduledMessageAction(value)).toThrow(expect.objectContaining({ code: 'SCHEDULED_MESSAGE_ACTION_INVALID', httpStatus: 400 }));
  });

  it('is required only while a schedule is pending', () => {
    expect(scheduleHandlingFor(false, undefined)).toBe('none');
    expect(scheduleHandlingFor(false, 'cancel')).toBe('none');
    expect(scheduleHandlingFor(true, 'cancel')).toBe('cancel');
    expect(scheduleHandlingFor(true, 'reassign')).toBe('reassign');
    expect(() => scheduleHandlingFor(true, undefined)).toThrow(expect.objectContaining({ code: 'SCHEDULED_MESSAGE_ACTION_REQUIRED', httpStatus: 400 }));
  });
});

describe('reassignedScheduleFields', () => {
  const aiSchedule = { executor_kind: 'ai_employee' as const, template_id: 'tpl-1', template_variables: [{ index: 1, value: 'Ana' }], template_header: null, template_button_parameters: [] };

  it('hands the schedule to another AI employee', () => {
    expect(reassignedScheduleFields(aiSchedule, { kind: 'ai_employee', aiEmployeeId: 'ai-2' })).toEqual({ executor_kind: 'ai_employee', ai_employee_id: 'ai-2' });
  });

  it('hands the schedule to humans as its fallback template', () => {
    expect(reassignedScheduleFields(aiSchedule, { kind: 'human_user', fallbackTemplateId: 'tpl-1' })).toEqual({
      executor_kind: 'human_user',
      ai_employee_id: null,
      template_id: 'tpl-1',
      message_kind: 'template',
      payload: { kind: 'template', template_uuid: 'tpl-1', variables: [{ index: 1, value: 'Ana' }] },
    });
  });

  it('keeps the template header and button parameters in the human payload', () => {
    const header = { type: 'text', value: 'Hi' };
    const buttons = [{ index: 0, sub_type: 'url', value: 'abc' }];
    const fields = reassignedScheduleFields({ ...aiSchedule, template_header: header, template_button_parameters: buttons }, { kind: 'human_user', fallbackTemplateId: 'tpl-9' });
    expect(fields['payload']).toEqual({ kind: 'template', template_uuid: 'tpl-9', variables: aiSchedule.template_variables, header, button_parameters: buttons });
  });
});
