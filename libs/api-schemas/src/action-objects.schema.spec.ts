import { SubmitActionGroupRequestSchema } from './action-group.schema';
import { assertActionGroupLimits, isAiTriggeringAction } from './action-group-limits';
import { ACTION_TYPES, ActionSchema } from './action-objects.schema';

const UUID = '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c';
const valid = (action: unknown) => ActionSchema.safeParse(action).success;

describe('action objects (CONTRACT 4)', () => {
  it('has the 12 action types', () => {
    expect([...ACTION_TYPES].sort()).toEqual(
      [
        'ai_assistance',
        'assign_ai_employee',
        'assign_label',
        'assign_mailbox',
        'context_note',
        'mark_pending',
        'mark_resolved',
        'remove_label',
        'run_ai',
        'send_message',
        'send_quick_reply_or_template',
        'unassign_ai',
      ].sort(),
    );
  });

  it.each([
    { type: 'send_message', text: 'Hi' },
    { type: 'send_message', file_uuid: UUID },
    { type: 'send_message', file_uuid: UUID, text: 'caption', transcription: 'what it says' },
    { type: 'send_message', quick_reply: { name: 'Welcome' } },
    { type: 'send_message', template: { uuid: UUID } },
    { type: 'send_message', template: { name: 'order_update', language: 'es_MX', variables: [{ index: 1, value: 'Ana' }], header: { type: 'text', value: 'Hi' } } },
    { type: 'send_message', template: { uuid: UUID, header: { type: 'document', file_uuid: UUID, transcription: 'Invoice' }, button_parameters: [{ index: 0, sub_type: 'url', value: 'x' }] } },
    { type: 'send_quick_reply_or_template', quick_reply: { uuid: UUID }, template: { uuid: UUID } },
    { type: 'assign_label', tags: [{ name: 'vip' }, { uuid: UUID }] },
    { type: 'remove_label', tags: [{ name: 'vip' }] },
    { type: 'assign_mailbox', mailbox: { name: 'Sales' } },
    { type: 'assign_mailbox', category: { uuid: UUID } },
    { type: 'context_note', note: 'x'.repeat(5000) },
    { type: 'mark_resolved' },
    { type: 'mark_pending' },
    { type: 'run_ai' },
    { type: 'run_ai', ai_employee: { name: 'Ana' } },
    { type: 'ai_assistance', ai_employee: { uuid: UUID }, prompt: 'x'.repeat(4000) },
    { type: 'assign_ai_employee', ai_employee: { name: 'Ana' }, run: true, scheduled_message_action: 'cancel' },
    { type: 'unassign_ai', scheduled_message_action: 'reassign' },
  ])('accepts %j', (action) => {
    expect(valid(action)).toBe(true);
  });

  it.each([
    ['unknown type', { type: 'explode' }],
    ['send_message without content', { type: 'send_message' }],
    ['send_message with two contents', { type: 'send_message', text: 'Hi', quick_reply: { name: 'Welcome' } }],
    ['send_message text over 4096', { type: 'send_message', text: 'x'.repeat(4097) }],
    ['transcription without a file', { type: 'send_message', text: 'Hi', transcription: 't' }],
    ['template name without language', { type: 'send_message', template: { name: 'order_update' } }],
    ['template variable index 0', { type: 'send_message', template: { uuid: UUID, variables: [{ index: 0, value: 'x' }] } }],
    ['no tags', { type: 'assign_label', tags: [] }],
    ['an empty reference', { type: 'remove_label', tags: [{}] }],
    ['mailbox and category', { type: 'assign_mailbox', mailbox: { name: 'a' }, category: { name: 'b' } }],
    ['neither mailbox nor category', { type: 'assign_mailbox' }],
    ['an empty note', { type: 'context_note', note: '' }],
    ['a note over 5000', { type: 'context_note', note: 'x'.repeat(5001) }],
    ['ai_assistance without employee', { type: 'ai_assistance', prompt: 'p' }],
    ['a prompt over 4000', { type: 'ai_assistance', ai_employee: { name: 'Ana' }, prompt: 'x'.repeat(4001) }],
    ['assign_ai_employee without employee', { type: 'assign_ai_employee', run: true }],
  ])('rejects %s', (_case, action) => {
    expect(valid(action)).toBe(false);
  });

  it('defaults run to false', () => {
    expect(ActionSchema.parse({ type: 'assign_ai_employee', ai_employee: { name: 'Ana' } })).toMatchObject({ run: false });
  });
});

describe('action group limits (SPEC 8)', () => {
  it('counts run_ai, ai_assistance and assign_ai_employee with run true as AI-triggering', () => {
    expect([
      { type: 'run_ai' },
      { type: 'ai_assistance' },
      { type: 'assign_ai_employee', run: true },
      { type: 'assign_ai_employee' },
      { type: 'assign_ai_employee', run: 'true' },
      { type: 'mark_pending' },
      null,
    ].map(isAiTriggeringAction)).toEqual([true, true, true, false, false, false, false]);
  });

  it('is BATCH_LIMIT_EXCEEDED with the cap in the message', () => {
    expect(() => assertActionGroupLimits(new Array(10).fill({ type: 'mark_pending' }))).not.toThrow();
    expect(() => assertActionGroupLimits(new Array(11).fill({}))).toThrow(expect.objectContaining({ code: 'BATCH_LIMIT_EXCEEDED', message: expect.stringContaining('at most 10 actions') }));
    expect(() => assertActionGroupLimits(new Array(4).fill({ type: 'run_ai' }))).toThrow(
      expect.objectContaining({ code: 'BATCH_LIMIT_EXCEEDED', message: expect.stringContaining('at most 3 AI-triggering actions') }),
    );
  });

  it('checks the limits before the schema, so an oversized invalid group still gets BATCH_LIMIT_EXCEEDED', () => {
    const body = { conversation: {}, actions: new Array(11).fill({ type: 'nonsense' }) };
    expect(() => SubmitActionGroupRequestSchema.safeParse(body)).toThrow(expect.objectContaining({ code: 'BATCH_LIMIT_EXCEEDED' }));
  });

  it('applies the flag defaults and refuses an empty group as a schema error', () => {
    const parsed = SubmitActionGroupRequestSchema.parse({ conversation: { uuid: UUID }, actions: [{ type: 'mark_pending' }] });
    expect(parsed).toEqual({ conversation: { uuid: UUID }, actions: [{ type: 'mark_pending' }], stop_on_error: true, escalate_on_error: true });
    expect(SubmitActionGroupRequestSchema.safeParse({ conversation: { uuid: UUID }, actions: [] }).success).toBe(false);
  });
});
