import { type Action, ActionSchema } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { FakeConversationServices } from '../testing/fake-conversation-services';
import { runPreflight } from './preflight';

const caller = { business_id: 'b1', token_uuid: 't1' };
const actionsOf = (...raw: unknown[]): Action[] => raw.map((action) => ActionSchema.parse(action));
const ANA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const MAX = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

async function failureOf(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return error as CatalogError;
  }
  throw new Error('expected the preflight to fail');
}

describe('runPreflight', () => {
  let fake: FakeConversationServices;
  const preflight = (actions: Action[], depth = 0) => runPreflight(fake.services.actions, { caller, context: fake.context, actions, depth });

  beforeEach(() => {
    fake = new FakeConversationServices();
    fake.addEmployee({ uuid: ANA, name: 'Ana' });
    fake.addEmployee({ uuid: MAX, name: 'Max', wallet_tokens: 0 });
  });

  it('checks nothing for a group without AI-triggering actions', async () => {
    fake.context = { ...fake.context, media_awaiting_transcription: 3, vision_wallet_tokens: 0 };
    await preflight(actionsOf({ type: 'assign_label', tags: [{ name: 'vip' }] }, { type: 'assign_ai_employee', ai_employee: { uuid: MAX } }));
    expect(fake.calls).toEqual([]);
  });

  it('runs the vision guard once for the group, naming the first AI-triggering action', async () => {
    fake.context = { ...fake.context, ai_employee_uuid: ANA, media_awaiting_transcription: 1, vision_wallet_tokens: 0 };
    const error = await failureOf(preflight(actionsOf({ type: 'mark_pending' }, { type: 'run_ai' })));
    expect([error.code, error.httpStatus]).toEqual(['VISION_WALLET_BLOCKED', 402]);
    expect(error.message).toMatch(/^actions\[1\] \(run_ai\): /);
  });

  it('resolves the assigned employee for run_ai and passes with an open wallet', async () => {
    fake.context = { ...fake.context, ai_employee_uuid: ANA };
    await preflight(actionsOf({ type: 'run_ai' }));
    expect(fake.callsOf('resolveAiEmployee')).toEqual([{ caller, ai_employee: { uuid: ANA } }]);
  });

  it('is INVALID_ASSIGNEE_FOR_RUN_AI for run_ai on a human-owned conversation without ai_employee', async () => {
    const error = await failureOf(preflight(actionsOf({ type: 'context_note', note: 'n' }, { type: 'run_ai' })));
    expect(error.code).toBe('INVALID_ASSIGNEE_FOR_RUN_AI');
    expect(error.message).toBe('actions[1] (run_ai): The conversation is human-owned and no ai_employee was given.');
  });

  it('follows assignments made earlier in the same group', async () => {
    await preflight(actionsOf({ type: 'assign_ai_employee', ai_employee: { name: 'ana' } }, { type: 'run_ai' }));
    expect(fake.callsOf('resolveAiEmployee')).toEqual([{ caller, ai_employee: { name: 'ana' } }]);
    fake.context = { ...fake.context, ai_employee_uuid: ANA };
    const error = await failureOf(preflight(actionsOf({ type: 'unassign_ai' }, { type: 'run_ai' })));
    expect(error.code).toBe('INVALID_ASSIGNEE_FOR_RUN_AI');
  });

  it('is WALLET_BLOCKED for an empty or blocked wallet, naming the action', async () => {
    const empty = await failureOf(preflight(actionsOf({ type: 'ai_assistance', ai_employee: { uuid: MAX }, prompt: 'Summary?' })));
    expect([empty.code, empty.message]).toEqual(['WALLET_BLOCKED', 'actions[0] (ai_assistance): The token wallet of AI employee "Max" is empty or blocked.']);
    fake.addEmployee({ uuid: ANA, name: 'Ana', wallet_blocked: true });
    const blocked = await failureOf(preflight(actionsOf({ type: 'mark_pending' }, { type: 'assign_ai_employee', ai_employee: { uuid: ANA }, run: true })));
    expect(blocked.message).toMatch(/^actions\[1\] \(assign_ai_employee\): /);
  });

  it('passes the resolution errors through, prefixed', async () => {
    fake.failNext('resolveAiEmployee', 'AMBIGUOUS_AI_EMPLOYEE', 'Several AI employees match; use ai_employee: { uuid }.');
    const error = await failureOf(preflight(actionsOf({ type: 'run_ai', ai_employee: { name: 'Twin' } })));
    expect([error.code, error.httpStatus, error.message]).toEqual([
      'AMBIGUOUS_AI_EMPLOYEE',
      409,
      'actions[0] (run_ai): Several AI employees match; use ai_employee: { uuid }.',
    ]);
    const missing = await failureOf(preflight(actionsOf({ type: 'run_ai', ai_employee: { uuid: '99999999-9999-4999-8999-999999999999' } })));
    expect(missing.code).toBe('AI_EMPLOYEE_NOT_FOUND');
  });

  it('is ACTIONS_DEPTH_EXCEEDED when the AI action would run past depth 3', async () => {
    await preflight(actionsOf({ type: 'run_ai', ai_employee: { uuid: ANA } }), 2);
    const error = await failureOf(preflight(actionsOf({ type: 'run_ai', ai_employee: { uuid: ANA } }), 3));
    expect([error.code, error.httpStatus]).toEqual(['ACTIONS_DEPTH_EXCEEDED', 422]);
    expect(error.message).toMatch(/^actions\[0\] \(run_ai\): /);
  });

  it('resolves each employee reference once', async () => {
    await preflight(actionsOf({ type: 'run_ai', ai_employee: { uuid: ANA } }, { type: 'ai_assistance', ai_employee: { uuid: ANA }, prompt: 'p' }));
    expect(fake.callsOf('resolveAiEmployee')).toHaveLength(1);
  });
});
