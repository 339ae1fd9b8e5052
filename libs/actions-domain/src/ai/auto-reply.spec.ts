import { autoReplyStillDue } from './auto-reply';

describe('autoReplyStillDue', () => {
  const context = { ai_employee_uuid: 'ai-1', inbox_status: 'resolved', last_inbound_message_uuid: 'm-2' };

  it('answers the newest customer message of an AI-owned conversation', () => {
    expect(autoReplyStillDue(context, 'm-2')).toBe(true);
  });

  it('leaves an older message to the run of the newer one', () => {
    expect(autoReplyStillDue(context, 'm-1')).toBe(false);
  });

  it('does not answer once a human took over or the AI was removed', () => {
    expect(autoReplyStillDue({ ...context, inbox_status: 'pending' }, 'm-2')).toBe(false);
    expect(autoReplyStillDue({ ...context, ai_employee_uuid: undefined }, 'm-2')).toBe(false);
  });

  it('answers when the conversation does not know its newest message', () => {
    expect(autoReplyStillDue({ ...context, last_inbound_message_uuid: undefined }, 'm-1')).toBe(true);
  });
});
