import { statusWebhook, storedCollection } from '@cmsg/testing';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase, openConversation, phoneOf, resultsOf, runGroup } from '../action-groups/action-group-fixtures';
import { settledEvents } from '../events/event-fixtures';
import { channelOf, deliverWebhook, eventually } from '../inbound/inbound-fixtures';
import { cloudApi, lastRequestSeq } from './messaging-fixtures';

// Retries wait for real here (1 s + 2 s, 6 s), on a machine shared with other stacks.
jest.setTimeout(240_000);

/** The Cloud API's send errors as the sender's caller sees them (CONTRACT 10.3, docs/messaging.md "Provider outcomes"). */
describe('provider outcomes of a send', () => {
  let business: ActionsBusiness;
  const outcomes = [
    [131047, 'WINDOW_CLOSED', 422],
    [131026, 'RECIPIENT_UNDELIVERABLE', 422],
    [131049, 'MARKETING_LIMIT_REACHED', 422],
    [131050, 'CONTACT_OPTED_OUT', 409],
    [130472, 'RECIPIENT_IN_EXPERIMENT', 422],
  ] as const;
  const refused = new Map<number, string>();
  const conversations = { group: '', throughput: '', pairRate: '', priced: '', lateFailure: '' };

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      for (const [code] of outcomes) refused.set(code, openConversation(seed));
      for (const name of Object.keys(conversations) as (keyof typeof conversations)[]) conversations[name] = openConversation(seed);
    });
    const to = (conversation: string) => phoneOf(business.seed, conversation);
    await cloudApi().addRules(
      ...outcomes.map(([code]) => ({ match: { to: to(refused.get(code)!) }, error: { code } })),
      { match: { to: to(conversations.group) }, error: { code: 131026 } },
      { match: { to: to(conversations.throughput) }, error: { code: 130429 }, times: 2 },
      { match: { to: to(conversations.pairRate) }, error: { code: 131056 }, times: 1 },
    );
  });

  afterAll(() => disconnectStackDatabase());

  const sendText = (conversation: string, text: string) => business.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text });
  const callsTo = async (conversation: string, since: number) => cloudApi().requests({ kind: 'message', to: phoneOf(business.seed, conversation), since });
  const outboundOf = (conversation: string) => storedCollection('messages').find({ conversation_id: conversation, is_from_customer: false }).toArray();
  const timelineItem = async (conversation: string, uuid: string) => {
    const timeline = await business.api.get('/conversation/timeline', { conversation_uuid: conversation, kinds: 'message' });
    expect(timeline.status).toBe(200);
    return timeline.body.items.find((item: { uuid: string }) => item.uuid === uuid);
  };

  it.each(outcomes)('%i: %s (%i) after one call, provider_code on the answer, the message, its timeline item and message.status_updated', async (providerCode, code, httpStatus) => {
    const conversation = refused.get(providerCode)!;
    const since = await lastRequestSeq();
    const response = await sendText(conversation, `refused with ${providerCode}`);
    expect([response.status, response.body.code, response.body.provider_code]).toEqual([httpStatus, code, String(providerCode)]);
    expect(response.body.message).toContain(`code ${providerCode}`);
    expect((await callsTo(conversation, since)).map((call) => call.status)).toEqual([400]);

    const [stored, ...more] = await outboundOf(conversation);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ status: 'failed', provider_message_id: null, error: { code, provider_code: String(providerCode) } });
    const item = await timelineItem(conversation, stored!._id as unknown as string);
    expect(item).toMatchObject({ direction: 'outbound', status: 'failed', error: { code, message: expect.stringContaining(String(providerCode)), provider_code: String(providerCode) }, pricing: null });
    const [event] = await settledEvents(conversation, 1, (candidate) => candidate.type === 'message.status_updated');
    expect(event!.data).toEqual(item);
  });

  it('an action group records the mapped code as the action\'s error, and does not escalate it', async () => {
    const group = await runGroup(business.api, { conversation: { uuid: conversations.group }, escalate_on_error: true, actions: [{ type: 'send_message', text: 'to nobody' }] });
    expect(resultsOf(group)).toEqual([['send_message', 'failed', 'RECIPIENT_UNDELIVERABLE']]);
    expect([group.status, group.escalated]).toEqual(['failed', false]);
    expect(await outboundOf(conversations.group)).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'RECIPIENT_UNDELIVERABLE', provider_code: '131026' }) })]);
  });

  it('130429 answered twice, then accepted: one message, sent, after 3 calls with back-off', async () => {
    const since = await lastRequestSeq();
    const started = Date.now();
    const response = await sendText(conversations.throughput, 'after the throughput limit');
    expect([response.status, response.body.message?.status]).toEqual([201, 'sent']);
    // At least 1 s then 2 s of back-off between the three calls.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    const calls = await callsTo(conversations.throughput, since);
    expect(calls.map((call) => call.status)).toEqual([400, 400, 200]);
    expect(new Set(calls.map((call) => JSON.stringify(call.body))).size).toBe(1);
    const [stored, ...more] = await outboundOf(conversations.throughput);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ status: 'sent', provider_message_id: calls[2]!.provider_message_id, error: null });
  });

  it('131056 once, then accepted 6 s later: one message, sent', async () => {
    const since = await lastRequestSeq();
    const response = await sendText(conversations.pairRate, 'after the pair rate limit');
    expect([response.status, response.body.message?.status]).toEqual([201, 'sent']);
    const calls = await callsTo(conversations.pairRate, since);
    expect(calls.map((call) => call.status)).toEqual([400, 200]);
    expect(Date.parse(calls[1]!.at) - Date.parse(calls[0]!.at)).toBeGreaterThanOrEqual(6_000 - 50);
    expect(await outboundOf(conversations.pairRate)).toHaveLength(1);
  });

  it('a status webhook\'s pricing is kept on the message and shown on its timeline item', async () => {
    const sent = await sendText(conversations.priced, 'priced');
    expect(sent.status).toBe(201);
    const uuid = sent.body.message.uuid as string;
    const wamid = (await storedCollection('messages').findOne({ _id: uuid }))!['provider_message_id'] as string;
    const pricing = { billable: true, pricing_model: 'PMP', category: 'utility' };
    const recipient = { ...channelOf(business), recipient_id: phoneOf(business.seed, conversations.priced) };
    expect((await deliverWebhook(statusWebhook({ ...recipient, message_id: wamid, status: 'delivered', pricing }))).status).toBe(200);
    await eventually(() => storedCollection('messages').findOne({ _id: uuid }), (message) => message?.status === 'delivered');

    const item = await timelineItem(conversations.priced, uuid);
    expect(item).toMatchObject({ status: 'delivered', error: null, pricing: { category: 'utility', billable: true, pricing_model: 'PMP' } });
    const events = await settledEvents(conversations.priced, 1, (event) => event.type === 'message.status_updated');
    expect(events.at(-1)!.data).toEqual(item);
  });

  it('a failure reported later by a status webhook is mapped the same way', async () => {
    const sent = await sendText(conversations.lateFailure, 'accepted, then refused');
    expect(sent.status).toBe(201);
    const uuid = sent.body.message.uuid as string;
    const wamid = (await storedCollection('messages').findOne({ _id: uuid }))!['provider_message_id'] as string;
    const recipient = { ...channelOf(business), recipient_id: phoneOf(business.seed, conversations.lateFailure) };
    const errors = [{ code: 131050, title: 'Unable to deliver the message.', error_data: { details: 'The recipient stopped marketing messages.' } }];
    expect((await deliverWebhook(statusWebhook({ ...recipient, message_id: wamid, status: 'failed', errors }))).status).toBe(200);
    await eventually(() => storedCollection('messages').findOne({ _id: uuid }), (message) => message?.status === 'failed');
    expect(await timelineItem(conversations.lateFailure, uuid)).toMatchObject({
      status: 'failed',
      error: { code: 'CONTACT_OPTED_OUT', message: expect.stringContaining('131050'), provider_code: '131050' },
    });
  });
});
