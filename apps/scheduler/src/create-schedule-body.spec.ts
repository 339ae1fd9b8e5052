import { CreateScheduledMessageRequestSchema } from '@cmsg/api-schemas';
import type { CreateScheduledMessageRequest } from '@cmsg/proto';
import { createScheduleBodyOf } from './create-schedule-body';

const TEMPLATE = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';

const base: CreateScheduledMessageRequest = {
  caller: { business_id: 'b1', token_uuid: 't1' },
  conversation: { uuid: '11111111-1111-4111-8111-111111111111', chat_user_id: undefined, username: undefined, phone: undefined, channel: undefined },
  executor_kind: 'human_user',
  scheduled_uuid: undefined,
  schedule_at: { date: '2027-01-02', time: '09:30' },
  cancel_on_customer_reply: true,
  reason: undefined,
  ai_employee_uuid: undefined,
  template_uuid: TEMPLATE,
  message_kind: 'message',
  payload: { kind: 'message', quick_reply_uuid: undefined, template_uuid: undefined, variables: [], header: undefined, button_parameters: [], text: 'Hi', media: { file_uuid: FILE, transcription: undefined } },
  template_variables: [],
  template_header: { type: 'image', value: undefined, file_uuid: FILE, transcription: undefined },
  template_button_parameters: [],
};

describe('createScheduleBodyOf', () => {
  it('turns the gRPC request back into the public body, which the public schema accepts', () => {
    const body = createScheduleBodyOf(base);
    expect(body).toEqual({
      executor_kind: 'human_user',
      conversation: { uuid: base.conversation!.uuid },
      schedule_at: { date: '2027-01-02', time: '09:30' },
      cancel_on_customer_reply: true,
      message_kind: 'message',
      payload: { kind: 'message', text: 'Hi', media: { file_uuid: FILE } },
      template_uuid: TEMPLATE,
      template_variables: [],
      template_header: { type: 'image', file_uuid: FILE },
      template_button_parameters: [],
    });
    expect(CreateScheduledMessageRequestSchema.safeParse(body).success).toBe(true);
  });

  it('keeps only the AI members on the AI branch, and a missing human template stays missing', () => {
    const ai = createScheduleBodyOf({ ...base, executor_kind: 'ai_employee', reason: 'Follow up', template_uuid: undefined });
    expect(ai).toEqual({
      executor_kind: 'ai_employee',
      conversation: { uuid: base.conversation!.uuid },
      schedule_at: { date: '2027-01-02', time: '09:30' },
      cancel_on_customer_reply: true,
      reason: 'Follow up',
    });
    const parsed = CreateScheduledMessageRequestSchema.safeParse(createScheduleBodyOf({ ...base, template_uuid: undefined }));
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('TEMPLATE_REQUIRED');
  });
});
