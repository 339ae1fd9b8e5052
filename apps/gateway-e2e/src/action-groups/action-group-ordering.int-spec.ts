import { randomUUID } from 'node:crypto';
import {
  type ActionsBusiness,
  aiServer,
  conversationDocument,
  createActionsBusiness,
  disconnectStackDatabase,
  openConversation,
  resultsOf,
  waitForGroup,
} from './action-group-fixtures';

// Generous: the suite shares one machine with every other stack and test run.
jest.setTimeout(240_000);

/** CONTRACT 4: one conversation's actions run in submission order, group after group; conversations run in parallel. */
describe('action groups: ordering and concurrency', () => {
  let business: ActionsBusiness;
  const slowModel = `gpt-slow-${randomUUID().slice(0, 8)}`;
  let ordered: string;
  let slowFirst: string;
  const many: string[] = [];

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      const slow = randomUUID();
      seed.ai_employees!.push({ uuid: slow, name: 'Slow', model: slowModel, wallet_tokens: 1000 });
      ordered = openConversation(seed);
      slowFirst = openConversation(seed, { ai_employee: slow });
      for (let index = 0; index < 50; index += 1) many.push(openConversation(seed));
    }, 1);
    await aiServer().addRules({ match: { model: slowModel }, delay_ms: 1500, times: 1 });
  });

  afterAll(() => disconnectStackDatabase());

  it('runs two groups submitted back to back on one conversation in order: assign then remove leaves no tag', async () => {
    const conversation = { uuid: ordered };
    const assign = await business.api.post('/conversation/actions', { conversation, actions: [{ type: 'assign_label', tags: [{ name: 'VIP' }] }, { type: 'context_note', note: 'first' }] });
    const remove = await business.api.post('/conversation/actions', { conversation, actions: [{ type: 'remove_label', tags: [{ name: 'VIP' }] }] });
    expect([assign.status, remove.status]).toEqual([202, 202]);
    const first = await waitForGroup(assign.body.action_group.uuid);
    const second = await waitForGroup(remove.body.action_group.uuid);
    expect(resultsOf(first)).toEqual([
      ['assign_label', 'succeeded', null],
      ['context_note', 'succeeded', null],
    ]);
    expect(resultsOf(second)).toEqual([['remove_label', 'succeeded', null]]);
    expect(first.actions[0]!.finished_at!.getTime()).toBeLessThanOrEqual(first.actions[1]!.started_at!.getTime());
    expect(first.actions[1]!.finished_at!.getTime()).toBeLessThanOrEqual(second.actions[0]!.started_at!.getTime());
    expect((await conversationDocument(ordered))!['tag_ids']).toEqual([]);
  });

  it('a slow group holds back the next one of its conversation, not other conversations', async () => {
    const slow = await business.api.post('/conversation/actions', { conversation: { uuid: slowFirst }, actions: [{ type: 'run_ai' }] });
    const after = await business.api.post('/conversation/actions', { conversation: { uuid: slowFirst }, actions: [{ type: 'context_note', note: 'after the AI' }] });
    const elsewhere = await business.api.post('/conversation/actions', { conversation: { uuid: many[0] }, actions: [{ type: 'context_note', note: 'meanwhile' }] });
    const [slowGroup, afterGroup, elsewhereGroup] = await Promise.all([slow, after, elsewhere].map((response) => waitForGroup(response.body.action_group.uuid)));
    expect(slowGroup!.actions[0]!.finished_at!.getTime()).toBeLessThanOrEqual(afterGroup!.actions[0]!.started_at!.getTime());
    expect(elsewhereGroup!.finished_at!.getTime()).toBeLessThan(slowGroup!.finished_at!.getTime());
  });

  it('runs the groups of 50 conversations concurrently, each complete and in order', async () => {
    const clients = [business.api, ...business.clients];
    const responses = await Promise.all(
      many.map((uuid, index) =>
        clients[index % clients.length]!.post('/conversation/actions', {
          conversation: { uuid },
          actions: [
            { type: 'assign_label', tags: [{ name: 'Lead' }] },
            { type: 'assign_mailbox', mailbox: { name: 'Support' } },
            { type: 'context_note', note: `bulk ${index}` },
            { type: 'remove_label', tags: [{ name: 'Lead' }] },
            { type: 'mark_pending' },
          ],
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(many.map(() => 202));
    const groups = await Promise.all(responses.map((response) => waitForGroup(response.body.action_group.uuid, 200_000)));
    for (const group of groups) {
      expect(group.actions.map((action) => action.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
      for (let index = 1; index < group.actions.length; index += 1) {
        expect(group.actions[index - 1]!.finished_at!.getTime()).toBeLessThanOrEqual(group.actions[index]!.started_at!.getTime());
      }
    }
    const documents = await Promise.all(many.map((uuid) => conversationDocument(uuid)));
    expect(documents.map((document) => [document!['tag_ids'], document!['mailbox_id'], document!['inbox_status']])).toEqual(
      many.map(() => [[], business.catalog.mailboxes.support, 'pending']),
    );
    // Run one after another they would take the sum of their durations. Both on the runner's clock,
    // from the first action started: the time the 50 requests took to be accepted is neither.
    const sum = groups.reduce((total, group) => total + (group.finished_at!.getTime() - group.actions[0]!.started_at!.getTime()), 0);
    const firstStarted = Math.min(...groups.map((group) => group.actions[0]!.started_at!.getTime()));
    const span = Math.max(...groups.map((group) => group.finished_at!.getTime())) - firstStarted;
    expect(span).toBeLessThan(sum);
  });
});
