import { ActionSchema } from '@cmsg/api-schemas';
import { AlreadyInStatePolicy } from '@cmsg/proto';
import { AiPipelines } from '../ai/ai-pipelines';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { silentLogger } from '../testing/silent-logger';
import { ActionExecutor, type ActionRunContext, isConversationChange } from './action-executor';

const caller = { business_id: 'b1', token_uuid: 't1' };
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const FILE = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
const NOOP = AlreadyInStatePolicy.ALREADY_IN_STATE_NOOP;

describe('ActionExecutor', () => {
  let fake: FakeConversationServices;
  let executor: ActionExecutor;
  let context: ActionRunContext;
  const conversation = () => ({ uuid: fake.context.uuid });
  const run = (raw: unknown, overrides: Partial<ActionRunContext> = {}) => executor.run(ActionSchema.parse(raw), { ...context, ...overrides });

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    executor = new ActionExecutor(fake.services, new AiPipelines(fake.services, new FakeAiProvider(), { now: () => new Date() }, silentLogger));
    context = { caller, conversationUuid: fake.context.uuid, operationId: 'g1:0', depth: 0, aiBudgetMs: 300_000, signal: new AbortController().signal };
  });

  describe('send_message', () => {
    const sent = () => fake.callsOf('sendMessage')[0];
    const base = () => ({ caller, conversation: conversation(), operation_id: 'g1:0', author: { type: 'api_token', uuid: 't1' } });

    it('sends text with the group operation id as the idempotency key', async () => {
      expect(await run({ type: 'send_message', text: 'Hi!' })).toBe('succeeded');
      expect(sent()).toEqual({ ...base(), text: { body: 'Hi!' } });
    });

    it('sends a file with its caption and transcription', async () => {
      await run({ type: 'send_message', file_uuid: FILE, text: 'Your invoice', transcription: 'Invoice #1' });
      expect(sent()).toEqual({ ...base(), file: { file_uuid: FILE, caption: 'Your invoice', transcription: 'Invoice #1' } });
    });

    it('sends a quick reply or a template', async () => {
      await run({ type: 'send_message', quick_reply: { name: 'Welcome' } });
      expect(sent()).toEqual({ ...base(), quick_reply: { name: 'Welcome' } });
      await run({
        type: 'send_message',
        template: { name: 'order_update', language: 'es_MX', variables: [{ index: 1, value: 'Ana' }], header: { type: 'image', file_uuid: FILE, transcription: 'A box' } },
      });
      expect(fake.callsOf('sendMessage')[1]).toEqual({
        ...base(),
        template: {
          template: { uuid: undefined, name: 'order_update', language: 'es_MX' },
          variables: [{ index: 1, value: 'Ana' }],
          header: { type: 'image', file_uuid: FILE, transcription: 'A box' },
          button_parameters: [],
        },
      });
    });

    it('sends send_quick_reply_or_template as the deprecated combined content', async () => {
      await run({ type: 'send_quick_reply_or_template', quick_reply: { name: 'Welcome' }, template: { uuid: FILE } });
      expect(sent().quick_reply_or_template).toEqual({
        quick_reply: { name: 'Welcome' },
        template: { template: { uuid: FILE, name: undefined, language: undefined }, variables: [], header: undefined, button_parameters: [] },
      });
    });

    it('throws the send failure', async () => {
      fake.failNext('sendMessage', 'WINDOW_CLOSED');
      await expect(run({ type: 'send_message', text: 'Hi!' })).rejects.toMatchObject({ code: 'WINDOW_CLOSED' });
    });
  });

  describe('tags', () => {
    it('assigns and removes with the no-op policy', async () => {
      expect(await run({ type: 'assign_label', tags: [{ name: 'vip' }, { uuid: FILE }] })).toBe('succeeded');
      expect(fake.callsOf('assignTags')[0]).toEqual({ caller, conversation: conversation(), tags: [{ name: 'vip' }, { uuid: FILE }], policy: NOOP });
      expect(await run({ type: 'remove_label', tags: [{ name: 'vip' }] })).toBe('succeeded');
      expect(fake.callsOf('removeTags')[0].policy).toBe(NOOP);
    });

    it('is a no-op when every tag already was in that state', async () => {
      fake.answer('assignTags', () => ({ conversation: conversation(), tags: [], results: [{ requested: { name: 'vip' }, status: 'noop' }] }));
      expect(await run({ type: 'assign_label', tags: [{ name: 'vip' }] })).toBe('noop');
    });

    it('fails with the code of the first tag that failed', async () => {
      fake.answer('assignTags', () => ({
        conversation: conversation(),
        tags: [],
        results: [
          { requested: { name: 'vip' }, status: 'assigned' },
          { requested: { name: 'nope' }, status: 'failed', error: { code: 'TAG_NOT_FOUND', message: 'The tag does not exist in this business.' } },
        ],
      }));
      await expect(run({ type: 'assign_label', tags: [{ name: 'vip' }, { name: 'nope' }] })).rejects.toMatchObject({
        code: 'TAG_NOT_FOUND',
        message: 'Tag "nope": The tag does not exist in this business.',
      });
    });
  });

  it('moves to a mailbox or a category, no-op when already there', async () => {
    expect(await run({ type: 'assign_mailbox', mailbox: { name: 'Sales' } })).toBe('succeeded');
    expect(fake.callsOf('assignMailbox')[0]).toEqual({ caller, conversation: conversation(), mailbox: { name: 'Sales' }, category: undefined, policy: NOOP });
    fake.answer('assignMailbox', () => ({ conversation: conversation(), noop: true }));
    expect(await run({ type: 'assign_mailbox', category: { name: 'Support' } })).toBe('noop');
  });

  it('adds a note and changes the inbox status through the conversations service', async () => {
    await run({ type: 'context_note', note: 'VIP customer' });
    await run({ type: 'mark_pending' });
    await run({ type: 'mark_resolved' });
    expect(fake.callsOf('addNote')).toEqual([{ caller, conversation: conversation(), note: 'VIP customer', operation_id: 'g1:0' }]);
    expect(fake.callsOf('markPending')).toEqual([{ caller, conversation: conversation() }]);
    expect(fake.callsOf('markResolved')).toEqual([{ caller, conversation: conversation() }]);
  });

  it('assigns an AI employee, and runs it when asked', async () => {
    fake.answer('assignAiEmployee', () => ({ conversation: conversation(), ai_employee: { uuid: ANA, name: 'Ana' }, noop: true }));
    expect(await run({ type: 'assign_ai_employee', ai_employee: { name: 'Ana' }, scheduled_message_action: 'cancel' })).toBe('noop');
    expect(fake.callsOf('assignAiEmployee')[0]).toEqual({ caller, conversation: conversation(), ai_employee: { name: 'Ana' }, scheduled_message_action: 'cancel', policy: NOOP });
    expect(await run({ type: 'assign_ai_employee', ai_employee: { name: 'Ana' }, run: true })).toBe('succeeded');
    expect(fake.callsOf('resolveAiEmployee').at(-1)).toEqual({ caller, ai_employee: { uuid: ANA } });
    expect(fake.callsOf('sendMessage')[0].author).toEqual({ type: 'ai_employee', uuid: ANA });
  });

  it('unassigns the AI without handing to a human', async () => {
    fake.answer('unassignAi', () => ({ conversation: conversation(), inbox_status: 'resolved', noop: true }));
    expect(await run({ type: 'unassign_ai' })).toBe('noop');
    expect(fake.callsOf('unassignAi')[0]).toEqual({ caller, conversation: conversation(), scheduled_message_action: undefined, hand_to_human: false });
  });

  it('runs the AI and answers assistance questions', async () => {
    fake.context = { ...fake.context, ai_employee_uuid: ANA };
    expect(await run({ type: 'run_ai' })).toBe('succeeded');
    expect(await run({ type: 'ai_assistance', ai_employee: { uuid: ANA }, prompt: 'Summary?' })).toBe('succeeded');
    expect(fake.callsOf('addNote')).toHaveLength(1);
  });

  it('answers a customer message only while it is the newest one: a superseded run is a no-op that sends nothing', async () => {
    fake.context = { ...fake.context, ai_employee_uuid: ANA, last_inbound_message_uuid: 'm-2' };
    expect(await run({ type: 'run_ai' }, { inReplyToMessageUuid: 'm-1' })).toBe('noop');
    expect(fake.callsOf('sendMessage')).toHaveLength(0);
    expect(fake.callsOf('chargeAiWallet')).toHaveLength(0);
    expect(await run({ type: 'run_ai' }, { inReplyToMessageUuid: 'm-2' })).toBe('succeeded');
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
  });

  it('refuses AI actions past the maximum depth', async () => {
    await expect(run({ type: 'run_ai' }, { depth: 3 })).rejects.toMatchObject({ code: 'ACTIONS_DEPTH_EXCEEDED' });
    await expect(run({ type: 'assign_ai_employee', ai_employee: { uuid: ANA }, run: true }, { depth: 3 })).rejects.toMatchObject({ code: 'ACTIONS_DEPTH_EXCEEDED' });
    expect(fake.callsOf('assignAiEmployee')).toHaveLength(0);
  });

  describe('consecutive changes', () => {
    const changes = (raws: unknown[]) => raws.map((raw, index) => ({ action: ActionSchema.parse(raw), operationId: `g1:${index}` }));

    it('applies them in one call, each as the request of its own RPC, and answers one outcome per change', async () => {
      fake.answer('assignMailbox', () => ({ conversation: conversation(), mailbox: { uuid: 'm', name: 'Sales' }, noop: true }));
      const outcomes = await executor.applyChanges(
        changes([{ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'context_note', note: 'n' }, { type: 'assign_mailbox', mailbox: { name: 'Sales' } }, { type: 'assign_ai_employee', ai_employee: { uuid: ANA } }, { type: 'mark_resolved' }]),
        context,
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['succeeded', 'succeeded', 'noop', 'succeeded', 'succeeded']);
      expect(outcomes.map((outcome) => outcome.durationMs)).toEqual([1, 1, 1, 1, 1]);
      expect(fake.callsOf('applyChanges')).toHaveLength(1);
      expect(fake.callsOf('applyChanges')[0].changes).toEqual([
        { assign_tags: { caller, conversation: conversation(), tags: [{ name: 'vip' }], policy: NOOP } },
        { add_note: { caller, conversation: conversation(), note: 'n', operation_id: 'g1:1' } },
        { assign_mailbox: { caller, conversation: conversation(), mailbox: { name: 'Sales' }, category: undefined, policy: NOOP } },
        { assign_ai_employee: { caller, conversation: conversation(), ai_employee: { uuid: ANA }, scheduled_message_action: undefined, policy: NOOP } },
        { mark_resolved: { caller, conversation: conversation() } },
      ]);
    });

    it('answers the failure of the change that failed as its catalog error, and no outcome for those the service did not apply', async () => {
      fake.failNext('addNote', 'CONVERSATION_NOT_FOUND', 'No such conversation.');
      const outcomes = await executor.applyChanges(changes([{ type: 'mark_pending' }, { type: 'context_note', note: 'n' }, { type: 'mark_resolved' }]), context);
      expect(outcomes).toHaveLength(2);
      expect(outcomes[0]).toEqual({ status: 'succeeded', durationMs: 1 });
      expect(outcomes[1]).toMatchObject({ status: 'failed', error: { code: 'CONVERSATION_NOT_FOUND', message: 'No such conversation.' } });
      expect(fake.callsOf('markResolved')).toHaveLength(0);
    });

    it('counts an assignment with run true, a send or an AI run as no change of the conversation alone', () => {
      expect([{ type: 'assign_ai_employee', ai_employee: { uuid: ANA } }, { type: 'unassign_ai' }, { type: 'remove_label', tags: [{ name: 'x' }] }].map((raw) => isConversationChange(ActionSchema.parse(raw)))).toEqual([true, true, true]);
      expect([{ type: 'assign_ai_employee', ai_employee: { uuid: ANA }, run: true }, { type: 'send_message', text: 'Hi' }, { type: 'run_ai' }].map((raw) => isConversationChange(ActionSchema.parse(raw)))).toEqual([false, false, false]);
    });
  });
});
