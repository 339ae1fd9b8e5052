import { CatalogError } from '@cmsg/errors';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { silentLogger } from '../testing/silent-logger';
import { AiPipelines } from './ai-pipelines';

const caller = { business_id: 'b1', token_uuid: 't1' };
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('AiPipelines', () => {
  let fake: FakeConversationServices;
  let provider: FakeAiProvider;
  let ai: AiPipelines;
  const conversationUuid = () => fake.context.uuid;

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana', model: 'gpt-ana', instructions: 'You are Ana.' });
    fake.context = { ...fake.context, ai_employee_uuid: ANA };
    provider = new FakeAiProvider();
    ai = new AiPipelines(fake.services, provider, clock, silentLogger);
  });

  describe('run', () => {
    const run = (extra = {}) => ai.run({ caller, conversationUuid: conversationUuid(), operationId: 'g1:2', budgetMs: 300_000, ...extra });

    it('replies as the assigned employee with the recent timeline, then charges the tokens once per operation', async () => {
      await run();
      expect(provider.requests[0]).toMatchObject({ model: 'gpt-ana', instructions: 'You are Ana.', timeline: [{ role: 'customer', text: 'Hello' }] });
      expect(fake.callsOf('sendMessage')).toEqual([
        { caller, conversation: { uuid: conversationUuid() }, operation_id: 'g1:2:reply', author: { type: 'ai_employee', uuid: ANA }, text: { body: 'AI: Hello' } },
      ]);
      expect(fake.callsOf('chargeAiWallet')).toEqual([{ caller, ai_employee_uuid: ANA, tokens: 15, operation_id: 'g1:2' }]);
    });

    it('fails WINDOW_CLOSED without calling the AI', async () => {
      fake.context = { ...fake.context, window_status: 'closed' };
      await expect(run()).rejects.toMatchObject({ code: 'WINDOW_CLOSED' });
      expect(provider.requests).toHaveLength(0);
    });

    it('fails NO_AI_EMPLOYEE_ASSIGNED when nobody is assigned and none is given', async () => {
      fake.context = { ...fake.context, ai_employee_uuid: undefined };
      await expect(run()).rejects.toMatchObject({ code: 'NO_AI_EMPLOYEE_ASSIGNED' });
    });

    it('fails WALLET_BLOCKED with an empty wallet, before the AI call', async () => {
      fake.addEmployee({ uuid: ANA, name: 'Ana', wallet_tokens: 0 });
      await expect(run()).rejects.toMatchObject({ code: 'WALLET_BLOCKED' });
      expect(provider.requests).toHaveLength(0);
    });

    it('passes AI_EXECUTION_FAILED on and sends nothing', async () => {
      provider.failWith = new CatalogError('AI_EXECUTION_FAILED', 'The AI run failed: boom.');
      await expect(run()).rejects.toMatchObject({ code: 'AI_EXECUTION_FAILED' });
      expect(fake.callsOf('sendMessage')).toHaveLength(0);
      expect(fake.callsOf('chargeAiWallet')).toHaveLength(0);
    });

    it('charges even when the reply cannot be sent, and reports the send failure', async () => {
      fake.failNext('sendMessage', 'SEND_FAILED');
      await expect(run()).rejects.toMatchObject({ code: 'SEND_FAILED' });
      expect(fake.callsOf('chargeAiWallet')).toHaveLength(1);
    });

    it('uses an explicit employee over the assigned one', async () => {
      const other = fake.addEmployee({ uuid: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', name: 'Leo', model: 'gpt-leo' });
      await run({ employee: { name: 'leo' } });
      expect(provider.requests[0]!.model).toBe('gpt-leo');
      expect(fake.callsOf('sendMessage')[0].author).toEqual({ type: 'ai_employee', uuid: other.uuid });
    });

    it('does not let a failed charge fail a reply the customer already got', async () => {
      fake.failNext('chargeAiWallet', 'UPDATE_FAILED');
      await expect(run()).resolves.toEqual({ employeeUuid: ANA, replyMessageUuid: 'msg-1' });
    });
  });

  describe('assist', () => {
    it('asks with the prompt as the last line, stores the answer as a note, sends nothing', async () => {
      const result = await ai.assist({ caller, conversationUuid: conversationUuid(), employee: { uuid: ANA }, prompt: 'What does the customer want?', operationId: 'op', budgetMs: 1000 });
      expect(result).toEqual({ answer: 'AI: What does the customer want?', noteUuid: 'note-1' });
      expect(provider.requests[0]!.instructions).toContain('You are Ana.');
      expect(provider.requests[0]!.instructions).toContain('never sent to the customer');
      expect(fake.callsOf('addNote')).toEqual([{ caller, conversation: { uuid: conversationUuid() }, note: 'AI: What does the customer want?', operation_id: 'op' }]);
      expect(fake.callsOf('sendMessage')).toHaveLength(0);
      expect(fake.callsOf('chargeAiWallet')).toEqual([{ caller, ai_employee_uuid: ANA, tokens: 15, operation_id: 'op' }]);
    });

    it('works on a closed window (nothing is sent to the contact)', async () => {
      fake.context = { ...fake.context, window_status: 'closed' };
      await expect(ai.assist({ caller, conversationUuid: conversationUuid(), employee: { uuid: ANA }, prompt: 'p', operationId: 'op', budgetMs: 1000 })).resolves.toBeDefined();
    });
  });
});
