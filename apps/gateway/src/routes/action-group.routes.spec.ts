import { KNOWN_CONVERSATION_UUID } from '../testing/fake-conversations-service';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';

const conversation = { uuid: KNOWN_CONVERSATION_UUID };

describe('action group routes: validation before the upstream call', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterAll(() => gateway.close());

  const submit = (body: unknown) => gateway.request('/v1/acme/conversation/actions', { method: 'POST', json: body });

  it('is 400 BATCH_LIMIT_EXCEEDED with the cap for 11 actions, even invalid ones', async () => {
    const response = await submit({ conversation, actions: new Array(11).fill({ type: 'no_such_action' }) });
    expect(response.status).toBe(400);
    expect(await response.json() as { code: string }).toEqual({ code: 'BATCH_LIMIT_EXCEEDED', message: 'An action group holds at most 10 actions; this one has 11.' });
  });

  it('is 400 BATCH_LIMIT_EXCEEDED for 4 AI-triggering actions', async () => {
    const actions = [{ type: 'run_ai' }, { type: 'ai_assistance', ai_employee: { name: 'a' }, prompt: 'p' }, { type: 'run_ai' }, { type: 'assign_ai_employee', ai_employee: { name: 'a' }, run: true }];
    const response = await submit({ conversation, actions });
    expect(response.status).toBe(400);
    expect((await response.json() as { code: string }).code).toBe('BATCH_LIMIT_EXCEEDED');
  });

  it('is 400 INVALID_REQUEST for no actions and for an invalid action, naming it', async () => {
    const empty = await submit({ conversation, actions: [] });
    expect([empty.status, (await empty.json() as { code: string }).code]).toEqual([400, 'INVALID_REQUEST']);
    const invalid = await submit({ conversation, actions: [{ type: 'mark_pending' }, { type: 'context_note', note: '' }] });
    const body = (await invalid.json()) as { code: string; message: string };
    expect([invalid.status, body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(body.message).toContain('actions.1');
  });

  it('is 400 INVALID_REQUEST for a group uuid that is not a uuid', async () => {
    const response = await gateway.request('/v1/acme/action-groups/not-a-uuid');
    expect([response.status, (await response.json() as { code: string }).code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
