import { CatalogError } from '@cmsg/errors';
import { AI_RUN_BUDGET_MS } from '../limits';
import { FakeAiProvider } from '../testing/fake-ai-provider';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { silentLogger } from '../testing/silent-logger';
import { requestAiAssistance } from './ai-assistance.usecase';
import { AiPipelines } from './ai-pipelines';

const caller = { business_id: 'b1', token_uuid: 't1' };
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

describe('requestAiAssistance', () => {
  let fake: FakeConversationServices;
  let provider: FakeAiProvider;
  const ask = (prompt = 'What does the customer want?', conversation: Record<string, string> = { phone: '+52 55 1234 5678' }) =>
    requestAiAssistance({ actions: fake.services.actions, ai: new AiPipelines(fake.services, provider, { now: () => new Date('2026-01-01T00:00:00Z') }, silentLogger) }, { caller, conversation, employee: { name: 'ana' }, prompt });

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    provider = new FakeAiProvider();
  });

  it('resolves the conversation reference, asks the employee, and answers the reply with the note that stores it', async () => {
    await expect(ask()).resolves.toEqual({ answer: 'AI: What does the customer want?', note: { uuid: 'note-1' } });
    // Everything after the resolution names the conversation by its uuid.
    expect(fake.callsOf('getConversationContext')).toEqual([
      { caller, conversation: { phone: '+52 55 1234 5678' } },
      { caller, conversation: { uuid: fake.context.uuid } },
    ]);
    expect(fake.callsOf('resolveAiEmployee')).toEqual([{ caller, ai_employee: { name: 'ana' } }]);
    expect(fake.callsOf('addNote')).toEqual([{ caller, conversation: { uuid: fake.context.uuid }, note: 'AI: What does the customer want?', operation_id: expect.stringMatching(/^assistance:[0-9a-f-]{36}$/) }]);
    expect(provider.requests[0]!.budgetMs).toBeLessThanOrEqual(AI_RUN_BUDGET_MS);
    expect(provider.requests[0]!.budgetMs).toBeGreaterThan(AI_RUN_BUDGET_MS - 1_000);
    expect(fake.callsOf('sendMessage')).toEqual([]);
  });

  it('takes a fresh operation id per request: two equal questions make two notes and two charges', async () => {
    await ask();
    await ask();
    const operations = fake.callsOf('addNote').map((request) => request.operation_id);
    expect(new Set(operations).size).toBe(2);
    expect(fake.callsOf('chargeAiWallet').map((request) => request.operation_id)).toEqual(operations);
  });

  it('passes CONVERSATION_NOT_FOUND on without asking the AI', async () => {
    fake.failNext('getConversationContext', 'CONVERSATION_NOT_FOUND');
    await expect(ask()).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(provider.requests).toEqual([]);
  });

  it('passes AI_EMPLOYEE_NOT_FOUND, WALLET_BLOCKED and VISION_WALLET_BLOCKED on, before any AI call or note', async () => {
    fake.employees.clear();
    await expect(ask()).rejects.toMatchObject({ code: 'AI_EMPLOYEE_NOT_FOUND' });
    fake.addEmployee({ uuid: ANA, name: 'Ana', wallet_blocked: true });
    await expect(ask()).rejects.toMatchObject({ code: 'WALLET_BLOCKED' });
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    fake.context = { ...fake.context, media_awaiting_transcription: 1, vision_wallet_tokens: 0 };
    await expect(ask()).rejects.toMatchObject({ code: 'VISION_WALLET_BLOCKED' });
    expect(provider.requests).toEqual([]);
    expect(fake.callsOf('addNote')).toEqual([]);
  });

  it('passes AI_EXECUTION_FAILED on, storing no note and charging nothing', async () => {
    provider.failWith = new CatalogError('AI_EXECUTION_FAILED', 'The AI run failed: boom.');
    await expect(ask()).rejects.toMatchObject({ code: 'AI_EXECUTION_FAILED' });
    expect(fake.callsOf('addNote')).toEqual([]);
    expect(fake.callsOf('chargeAiWallet')).toEqual([]);
  });

  it('answers UPDATE_FAILED when the note is stored but not returned, still charging the tokens spent', async () => {
    fake.answer('addNote', () => ({ conversation: { uuid: fake.context.uuid } }));
    await expect(ask()).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    expect(fake.callsOf('chargeAiWallet')).toHaveLength(1);
  });
});
