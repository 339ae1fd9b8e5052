import { CreateScheduledMessageRequestSchema } from '@cmsg/api-schemas';
import type { ScheduledMessage } from '@cmsg/proto';
import { toCreateScheduledMessageRequest, toCreateScheduledMessageResponse, toScheduledMessageView } from './scheduled-message.mapper';

const caller = { business_id: 'b1', token_uuid: 't1' };
const CONVERSATION = '11111111-1111-4111-8111-111111111111';
const TEMPLATE = '22222222-2222-4222-8222-222222222222';

describe('scheduled message mappers', () => {
  it('maps an AI body to the gRPC request, null members as absent', () => {
    const body = CreateScheduledMessageRequestSchema.parse({
      executor_kind: 'ai_employee',
      conversation: { uuid: CONVERSATION },
      schedule_at: { date: '2027-01-02', time: '09:30' },
      reason: 'Follow up',
      ai_employee_uuid: null,
    });
    expect(toCreateScheduledMessageRequest(caller, body)).toMatchObject({
      caller,
      executor_kind: 'ai_employee',
      schedule_at: { date: '2027-01-02', time: '09:30' },
      reason: 'Follow up',
      ai_employee_uuid: undefined,
      template_uuid: undefined,
      cancel_on_customer_reply: false,
      payload: undefined,
    });
  });

  it('maps a human body with a template payload and a text header', () => {
    const body = CreateScheduledMessageRequestSchema.parse({
      executor_kind: 'human_user',
      conversation: { phone: '+5215512345678' },
      schedule_at: { date: '2027-01-02', time: '23:59' },
      message_kind: 'template',
      payload: { kind: 'template', template_uuid: TEMPLATE, variables: [{ index: 1, value: 'Ana' }], header: { type: 'text', value: 'Hi' } },
      template_uuid: TEMPLATE,
    });
    const request = toCreateScheduledMessageRequest(caller, body);
    expect(request.payload).toMatchObject({ kind: 'template', template_uuid: TEMPLATE, variables: [{ index: 1, value: 'Ana' }], header: { type: 'text', value: 'Hi' } });
    expect(request).toMatchObject({ message_kind: 'template', template_uuid: TEMPLATE, template_variables: [], template_button_parameters: [] });
  });

  it('answers the creation under data', () => {
    expect(toCreateScheduledMessageResponse({ uuid: 'u1', executor_kind: 'human_user', schedule_at: '2027-01-02T15:30:00.000Z', status: 'pending' })).toEqual({
      data: { uuid: 'u1', executor_kind: 'human_user', schedule_at: '2027-01-02T15:30:00.000Z', status: 'pending' },
    });
  });

  it('shows the internal firing state as pending with fired_at, and history statuses likewise', () => {
    const record: ScheduledMessage = {
      uuid: 'u1',
      conversation_uuid: CONVERSATION,
      executor_kind: 'ai_employee',
      status: 'firing',
      schedule_at: '2027-01-02T15:30:00.000Z',
      schedule_local: { date: '2027-01-02', time: '09:30' },
      time_zone: 'America/Mexico_City',
      is_tester: false,
      cancel_on_customer_reply: true,
      ai_employee_uuid: 'ai-1',
      reason: 'Follow up',
      template_uuid: undefined,
      message_kind: undefined,
      payload: undefined,
      template_variables: [],
      template_header: undefined,
      template_button_parameters: [],
      author: { type: 'api_token', uuid: 't1' },
      error: undefined,
      history: [{ at: '2027-01-02T15:30:00.500Z', event: 'fired', status: 'firing', reason: undefined, actor: undefined, detail_json: '{"attempt":1}' }],
      fired_at: '2027-01-02T15:30:00.500Z',
      created_at: '2026-12-01T00:00:00.000Z',
      updated_at: '2027-01-02T15:30:00.500Z',
    };
    expect(toScheduledMessageView(record)).toMatchObject({
      status: 'pending',
      fired_at: '2027-01-02T15:30:00.500Z',
      schedule_local: { date: '2027-01-02', time: '09:30', time_zone: 'America/Mexico_City' },
      ai_employee_uuid: 'ai-1',
      template_uuid: null,
      payload: null,
      error: null,
      history: [{ event: 'fired', status: 'pending', reason: null, actor: null, detail: { attempt: 1 } }],
    });
    expect(() => toScheduledMessageView({ ...record, status: 'exploded' })).toThrow('exploded');
  });
});
