import { createScheduledMessageCommand } from './scheduled-message-command';
import { publicScheduledMessageStatus, scheduleContextNoteId, scheduleHistoryEntry, scheduledOperationId } from './scheduled-message-lifecycle';

const fields = {
  schedule_uuid: '5c4b3a29-1111-4222-8333-444455556666',
  business_id: 'b1',
  conversation_uuid: '11111111-1111-4111-8111-111111111111',
  token_uuid: 't1',
  executor_kind: 'human_user' as const,
  due_at: '2027-01-02T15:30:00.000Z',
  fired_at: '2027-01-02T15:30:00.400Z',
  request_id: null,
};

describe('scheduled_message command', () => {
  it('builds a valid command and refuses an invalid one, naming the field', () => {
    expect(createScheduledMessageCommand(fields)).toEqual({ kind: 'scheduled_message', ...fields });
    expect(() => createScheduledMessageCommand({ ...fields, conversation_uuid: 'nope' })).toThrow('conversation_uuid');
    expect(() => createScheduledMessageCommand({ ...fields, executor_kind: 'robot' as never })).toThrow('executor_kind');
  });

  it('derives operation ids from the schedule uuid, one per delivery path', () => {
    expect(scheduledOperationId(fields.schedule_uuid, 'literal')).toBe(`schedule:${fields.schedule_uuid}:literal`);
    expect(scheduledOperationId(fields.schedule_uuid, 'template')).not.toBe(scheduledOperationId(fields.schedule_uuid, 'literal'));
  });

  it('derives one context note id per schedule, a UUID (version 5 layout)', () => {
    const id = scheduleContextNoteId(fields.schedule_uuid);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(scheduleContextNoteId(fields.schedule_uuid)).toBe(id);
    expect(scheduleContextNoteId(fields.conversation_uuid)).not.toBe(id);
  });

  it('shows firing and sending as pending publicly and refuses unknown statuses', () => {
    expect(['pending', 'firing', 'sending', 'sent', 'failed', 'cancelled'].map(publicScheduledMessageStatus)).toEqual(['pending', 'pending', 'pending', 'sent', 'failed', 'cancelled']);
    expect(() => publicScheduledMessageStatus('exploded')).toThrow('exploded');
  });

  it('builds history entries with the system actor by default', () => {
    const at = new Date('2027-01-02T15:30:00.000Z');
    expect(scheduleHistoryEntry('cancelled', 'cancelled', at, { reason: 'replaced' })).toEqual({
      at,
      event: 'cancelled',
      status: 'cancelled',
      reason: 'replaced',
      actor: { type: 'system', uuid: null },
      detail: null,
    });
  });
});
