import { randomUUID } from 'node:crypto';
import { AppProcess, FakeAiServer, freePort, integrationStack } from '@cmsg/testing';
import { waitForReady } from '@cmsg/testing/local-stack';
import {
  type ActionsBusiness,
  cloudApi,
  createActionsBusiness,
  disconnectStackDatabase,
  openConversation,
  phoneOf,
  storedGroup,
  waitForGroup,
} from './action-group-fixtures';

jest.setTimeout(240_000);

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CONTRACT 4: a crash of any process never loses an accepted group and never runs an action twice.
 * A gateway and actions-runner replicas of this test's own (own command topic and consumer group,
 * the stack's conversations service, database and fake Cloud API), so killing runners disturbs no
 * other test. The runner is killed with SIGKILL twice: during a slow AI call, then during a slow send.
 */
describe('action groups: kill -9 of the runner mid-group', () => {
  const runners: AppProcess[] = [];
  let gateway: AppProcess;
  let ai: FakeAiServer;
  let business: ActionsBusiness;
  let conversation: string;
  let runnerEnv: Record<string, string>;
  const model = `gpt-crash-${randomUUID().slice(0, 8)}`;
  const logDir = `${integrationStack().logDir}/crash-test`;

  const startRunner = async (): Promise<AppProcess> => {
    const runner = new AppProcess(`actions-runner-crash-${runners.length + 1}`, 'actions-runner', runnerEnv, logDir);
    runners.push(runner);
    runner.start();
    return runner;
  };

  beforeAll(async () => {
    ai = new FakeAiServer();
    const aiBaseUrl = await ai.start();
    const stack = integrationStack();
    const runnerPort = await freePort();
    const gatewayPort = await freePort();
    runnerEnv = {
      ...stack.env,
      KAFKA_TOPIC_PREFIX: `${stack.env['KAFKA_TOPIC_PREFIX']}crash-${randomUUID().slice(0, 8)}.`,
      GRPC_ADDRESS: `127.0.0.1:${runnerPort}`,
      AI_BASE_URL: aiBaseUrl,
      AI_API_KEY: 'crash-test-key',
      // Notice a dead replica within seconds instead of the default 30 s.
      COMMAND_SESSION_TIMEOUT_MS: '6000',
    };
    await startRunner();
    gateway = new AppProcess('gateway-crash', 'gateway', { ...stack.env, PORT: String(gatewayPort), ACTIONS_GRPC_ADDRESS: runnerEnv['GRPC_ADDRESS']! }, logDir);
    gateway.start();
    await waitForReady(`http://127.0.0.1:${gatewayPort}/readyz`, 60_000);
    business = await createActionsBusiness((seed) => {
      const employee = randomUUID();
      seed.ai_employees!.push({ uuid: employee, name: 'Crashy', model, wallet_tokens: 100_000 });
      conversation = openConversation(seed, { ai_employee: employee });
    });
    business.api = business.api.atGateway(`http://127.0.0.1:${gatewayPort}`);
  });

  afterAll(async () => {
    for (const runner of runners) await runner.stop('SIGKILL');
    await gateway?.stop();
    await ai?.stop();
    await disconnectStackDatabase();
  });

  it('finishes the group after two crashes; every action has a result and each message reached the provider exactly once', async () => {
    const phone = phoneOf(business.seed, conversation);
    ai.addRule({ match: { model }, delay_ms: 8_000, times: 1 });
    await cloudApi().addRules({ match: { to: phone, type: 'template' }, delay_ms: 6_000, times: 1 });

    const response = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversation },
      actions: [
        { type: 'send_message', text: 'Before the AI' },
        { type: 'run_ai' },
        { type: 'send_message', template: { uuid: business.catalog.templates.approved, variables: [{ index: 1, value: 'Ana' }] } },
        { type: 'context_note', note: 'After everything' },
      ],
    });
    expect(response.status).toBe(202);
    const uuid = response.body.action_group.uuid as string;
    const statusOf = async (index: number) => (await storedGroup(uuid))?.actions[index]?.status;

    // Crash 1: while the AI is thinking (its reply not sent yet).
    await until('the AI call', async () => ai.requests({ endpoint: 'chat.completions' }).length === 1);
    expect(await statusOf(1)).toBe('running');
    await runners[0]!.stop('SIGKILL');
    await startRunner();

    // Crash 2: while the template send waits on the provider.
    await until('the template send in flight', async () => (await cloudApi().requests({ kind: 'message', to: phone })).some((record) => (record.body as { type?: string }).type === 'template'));
    await runners[1]!.stop('SIGKILL');
    await startRunner();

    const group = await waitForGroup(uuid, 120_000);
    expect(group.status).toBe('succeeded');
    for (const action of group.actions) {
      expect(action.status).toBe('succeeded');
      expect(action.finished_at).not.toBeNull();
    }
    const sends = (await cloudApi().requests({ kind: 'message', to: phone })).map((record) => ({ body: record.body as any, status: record.status }));
    expect(sends.map((send) => [send.body.type, send.body.text?.body ?? send.body.template?.name, send.status])).toEqual([
      ['text', 'Before the AI', 200],
      ['text', `AI(${model}): re: Hello, I need help`, 200],
      ['template', 'order_update', 200],
    ]);
    // The AI was asked again after the first crash: the first answer never came.
    expect(ai.requests({ endpoint: 'chat.completions' }).length).toBe(2);
    const read = await business.api.get(`/action-groups/${uuid}`);
    expect(read.body.actions.map((action: { status: string }) => action.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
  });

  it('SIGTERM drains: the group under way finishes before the runner exits', async () => {
    ai.addRule({ match: { model }, delay_ms: 4_000, times: 1 });
    const response = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversation },
      actions: [{ type: 'run_ai' }, { type: 'context_note', note: 'after the drain' }],
    });
    expect(response.status).toBe(202);
    const uuid = response.body.action_group.uuid as string;
    const before = ai.requests({ endpoint: 'chat.completions' }).length;
    await until('the AI call', async () => ai.requests({ endpoint: 'chat.completions' }).length > before);
    const runner = runners[runners.length - 1]!;
    await runner.stop('SIGTERM');
    const group = await storedGroup(uuid);
    expect(group?.status).toBe('succeeded');
    expect(group?.actions.map((action) => action.status)).toEqual(['succeeded', 'succeeded']);
    expect(runner.logTail(200)).toContain('drained, exiting');
  });
});
