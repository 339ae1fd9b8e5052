import { ActionSchema } from '@cmsg/api-schemas';
import { inboundAiRunCommand, shouldQueueAiRun } from './ai-run-command';

const NOW = new Date('2025-03-01T12:00:00Z');
const input = { businessId: 'biz-1', conversationUuid: '0b6f6d2e-2f1c-4f7e-9d5a-3c4b5a6d7e8f', messageId: 'c3d0b3a0-5b7e-5f1a-8c2d-1e2f3a4b5c6d', requestId: 'req-1', now: NOW };

describe('inboundAiRunCommand', () => {
  it('is an action_group of one run_ai action, in the runner command shape', () => {
    const command = inboundAiRunCommand(input);
    expect(command).toEqual({
      kind: 'action_group',
      group_uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      business_id: 'biz-1',
      token_uuid: '',
      request_id: 'req-1',
      conversation_uuid: input.conversationUuid,
      source: 'run_ai',
      depth: 0,
      stop_on_error: true,
      escalate_on_error: true,
      actions: [{ type: 'run_ai' }],
      created_at: '2025-03-01T12:00:00.000Z',
      in_reply_to_message_uuid: input.messageId,
    });
    expect(ActionSchema.parse(command.actions[0])).toEqual({ type: 'run_ai' });
  });

  it('derives the group from the message, so a redelivery queues the same group', () => {
    expect(inboundAiRunCommand(input).group_uuid).toBe(inboundAiRunCommand({ ...input, now: new Date(), requestId: null }).group_uuid);
    expect(inboundAiRunCommand(input).group_uuid).not.toBe(inboundAiRunCommand({ ...input, messageId: 'another' }).group_uuid);
  });
});

describe('shouldQueueAiRun', () => {
  it('runs the assigned AI unless the conversation is pending or a tester one', () => {
    expect(shouldQueueAiRun({ ai_employee_id: 'ai-1', inbox_status: 'resolved', is_tester: false })).toBe(true);
    expect(shouldQueueAiRun({ ai_employee_id: 'ai-1', inbox_status: 'pending', is_tester: false })).toBe(false);
    expect(shouldQueueAiRun({ ai_employee_id: null, inbox_status: 'resolved', is_tester: false })).toBe(false);
    expect(shouldQueueAiRun({ ai_employee_id: 'ai-1', inbox_status: 'resolved', is_tester: true })).toBe(false);
  });
});
