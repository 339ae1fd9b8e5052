import { randomUUID } from 'node:crypto';
import { AiEmployeeRepository, businessScope } from '@cmsg/dal';
import { type AiRecord, type TestBusiness, contactSeed, createTestBusiness, fakeWamid, inboundMediaWebhook, inboundTextWebhook, storedCollection, uniquePhone } from '@cmsg/testing';
import { aiProvider, channelOf, cloudApi, deliverWebhook, eventually, inboundMessageByProviderId } from './inbound-fixtures';

interface StoredActionGroup {
  _id: string;
  conversation_id: string;
  status: string;
  actions: { type: string; status: string }[];
  created_at: Date;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const OGG = Buffer.concat([Buffer.from('OggS\0', 'latin1'), Buffer.alloc(500, 3)]);

/**
 * The whole inbound path of an AI-owned conversation: signed webhook -> gateway -> Kafka chat-inbound
 * -> conversations (message recorded, AI run queued on conversation-commands) -> actions-runner
 * (AI employee through the fake OpenAI-compatible server) -> reply through the fake Cloud API.
 */
describe('inbound message -> AI employee reply (CONTRACT 6 and 7, SPEC 3.1)', () => {
  let business: TestBusiness;
  const ai = randomUUID();
  // A model name of this file only, so the fake AI's records are this file's.
  const MODEL = `gpt-inbound-${randomUUID().slice(0, 8)}`;
  const ASSISTANT_MODEL = `${MODEL}-assistant`;
  const assistant = randomUUID();
  const WALLET = 100_000;
  const phones = { aiOwned: uniquePhone(), pending: uniquePhone(), human: uniquePhone(), burst: uniquePhone(), media: uniquePhone() };
  const conversations = { aiOwned: randomUUID(), pending: randomUUID(), human: randomUUID(), burst: randomUUID(), media: randomUUID() };
  const digits = (phone: string) => phone.replace(/\D/g, '');

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.vision_wallet_tokens = 10_000;
      seed.ai_employees = [
        { uuid: ai, name: 'Rosa', model: MODEL, instructions: 'You are Rosa, the host of a restaurant.', wallet_tokens: WALLET },
        { uuid: assistant, name: 'Analyst', model: ASSISTANT_MODEL, wallet_tokens: WALLET },
      ];
      contactSeed(seed, { phone: phones.aiOwned, conversation: { uuid: conversations.aiOwned, ai_employee: ai, inbox_status: 'resolved' } });
      contactSeed(seed, { phone: phones.pending, conversation: { uuid: conversations.pending, ai_employee: ai, inbox_status: 'pending' } });
      contactSeed(seed, { phone: phones.human, conversation: { uuid: conversations.human, inbox_status: 'resolved' } });
      contactSeed(seed, { phone: phones.burst, conversation: { uuid: conversations.burst, ai_employee: ai, inbox_status: 'resolved' } });
      contactSeed(seed, { phone: phones.media, conversation: { uuid: conversations.media, ai_employee: ai, inbox_status: 'resolved' } });
    });
  });

  const lastSeq = async () => Math.max(0, ...(await aiProvider().requests()).map((record) => record.seq));
  const completionsOf = async (since: number): Promise<AiRecord[]> => aiProvider().requests({ endpoint: 'chat.completions', model: MODEL, since });
  const promptOf = (record: AiRecord) => (record.body as { messages: { role: string; content: string }[] }).messages;
  const repliesTo = async (phone: string) => (await cloudApi().requests({ kind: 'message', to: digits(phone) })).filter((record) => record.status === 200);
  const actionGroupsOf = (conversationUuid: string) =>
    storedCollection<StoredActionGroup>('action_groups').find({ conversation_id: conversationUuid }).sort({ created_at: 1 }).toArray();
  const walletOf = async () => (await new AiEmployeeRepository().findById(businessScope(business.businessId), ai))!.wallet_tokens;

  it('answers an inbound customer message on an AI-owned, non-pending conversation, once, through the fake Cloud API', async () => {
    const since = await lastSeq();
    const walletBefore = await walletOf();
    const wamid = fakeWamid();
    const text = '¿Tienen mesa para cuatro a las nueve?';
    const payload = inboundTextWebhook({ ...channelOf(business), from: digits(phones.aiOwned), name: 'Lucía', id: wamid, text });
    expect((await deliverWebhook(payload)).status).toBe(200);

    const [reply] = await eventually(() => repliesTo(phones.aiOwned), (replies) => replies.length >= 1, 60_000);
    const expectedAnswer = `AI(${MODEL}): re: ${text}`;
    expect(reply!.body).toMatchObject({ messaging_product: 'whatsapp', to: digits(phones.aiOwned), type: 'text', text: { body: expectedAnswer } });
    expect(reply!.phone_number_id).toBe(channelOf(business).phone_number_id);

    // The AI got the employee's instructions and the customer's words.
    const [completion, ...more] = await completionsOf(since);
    expect(more).toEqual([]);
    expect(promptOf(completion!)[0]).toEqual({ role: 'system', content: 'You are Rosa, the host of a restaurant.' });
    expect(promptOf(completion!)).toContainEqual({ role: 'user', content: text });

    // The reply is on the conversation's timeline, written by the AI employee, with the provider's id.
    const inbound = await inboundMessageByProviderId(business.businessId, wamid);
    const answer = await eventually(
      () => storedCollection('messages').findOne({ business_id: business.businessId, conversation_id: conversations.aiOwned, is_from_customer: false }),
      (found) => found?.status === 'sent',
    );
    expect(answer).toMatchObject({ body: expectedAnswer, author: { type: 'ai_employee', uuid: ai }, provider_message_id: reply!.provider_message_id });
    expect(answer!.created_at.getTime()).toBeGreaterThanOrEqual(inbound!.created_at.getTime());

    // The employee's wallet paid exactly the tokens the provider reported.
    const usage = (await completionUsage(completion!)).total_tokens;
    await eventually(walletOf, (wallet) => wallet === walletBefore - usage);

    // The runner records the result just after the send.
    const [group, ...otherGroups] = await eventually(() => actionGroupsOf(conversations.aiOwned), (groups) => groups.every((found) => found.status !== 'processing'));
    expect(otherGroups).toEqual([]);
    expect(group).toMatchObject({ status: 'succeeded', actions: [{ type: 'run_ai', status: 'succeeded' }] });

    // The provider repeats the webhook: nothing is answered again.
    expect((await deliverWebhook(payload)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await repliesTo(phones.aiOwned)).toHaveLength(1);
    expect(await completionsOf(since)).toHaveLength(1);
  });

  it('gives no AI run to a pending conversation nor to a human-owned one', async () => {
    const since = await lastSeq();
    const pendingWamid = fakeWamid();
    const humanWamid = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits(phones.pending), id: pendingWamid, text: 'Sigo esperando al gerente' }));
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits(phones.human), id: humanWamid, text: 'Hola equipo' }));
    await eventually(() => inboundMessageByProviderId(business.businessId, pendingWamid), (found) => found?.ingest?.conversation_applied === true);
    await eventually(() => inboundMessageByProviderId(business.businessId, humanWamid), (found) => found?.ingest?.conversation_applied === true);
    // Long enough for a queued run to have reached the fakes.
    await new Promise((resolve) => setTimeout(resolve, 5000));

    expect(await completionsOf(since)).toEqual([]);
    expect(await repliesTo(phones.pending)).toEqual([]);
    expect(await repliesTo(phones.human)).toEqual([]);
    expect(await actionGroupsOf(conversations.pending)).toEqual([]);
    expect(await actionGroupsOf(conversations.human)).toEqual([]);
    expect(await inboundMessageByProviderId(business.businessId, pendingWamid)).toMatchObject({ ingest: { ai_run_queued: false } });
  });

  it('answers a burst once: one run per inbound message, and a run whose message a newer one superseded does nothing', async () => {
    const since = await lastSeq();
    // Another command holds the conversation's stream (an assistance query the AI answers slowly),
    // so both messages are recorded before the first one's run starts: the quick-burst case.
    await aiProvider().addRules({ match: { model: ASSISTANT_MODEL }, delay_ms: 8000, times: 1 });
    const busy = await business.api.post('/conversation/actions', {
      conversation: { uuid: conversations.burst },
      actions: [{ type: 'ai_assistance', ai_employee: { uuid: assistant }, prompt: 'Resume la conversación' }],
    });
    expect(busy.status).toBe(202);
    await eventually(() => aiProvider().requests({ model: ASSISTANT_MODEL, since }), (found) => found.length === 1);

    const first = fakeWamid();
    const firstPayload = inboundTextWebhook({ ...channelOf(business), from: digits(phones.burst), id: first, text: 'Hola' });
    await deliverWebhook(firstPayload);
    const second = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(business), from: digits(phones.burst), id: second, text: 'Quiero reservar para dos' }));
    await deliverWebhook(firstPayload);
    await eventually(() => inboundMessageByProviderId(business.businessId, second), (found) => found?.ingest?.ai_run_queued === true);
    // The precondition of the burst case: both runs were queued while the stream was still busy.
    expect((await actionGroupsOf(conversations.burst)).find((group) => group.actions[0]!.type === 'ai_assistance')!.status).toBe('processing');

    const groups = await eventually(
      () => actionGroupsOf(conversations.burst),
      (found) => found.length === 3 && found.every((group) => group.status !== 'processing'),
      60_000,
    );
    const runs = groups.filter((group) => group.actions[0]!.type === 'run_ai');
    // Both runs end succeeded: the superseded one as a no-op, the newest one with the answer.
    expect(runs.map((group) => group.actions[0]!.status).sort()).toEqual(['noop', 'succeeded']);
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const replies = await repliesTo(phones.burst);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toMatchObject({ text: { body: `AI(${MODEL}): re: Quiero reservar para dos` } });
    const [completion, ...more] = await completionsOf(since);
    expect(more).toEqual([]);
    expect(promptOf(completion!)).toContainEqual({ role: 'user', content: 'Hola' });
    expect(promptOf(completion!)).toContainEqual({ role: 'user', content: 'Quiero reservar para dos' });
  });
  it('lets the AI read what a voice note says and what a photo shows (their transcriptions are in its prompt)', async () => {
    const since = await lastSeq();
    const deliverMedia = async (media_type: 'audio' | 'image', bytes: Buffer, mime_type: string, extra: { voice?: boolean; caption?: string }) => {
      const registered = await cloudApi().registerMedia({ bytes, mime_type });
      const wamid = fakeWamid();
      await deliverWebhook(inboundMediaWebhook({ ...channelOf(business), from: digits(phones.media), id: wamid, media_type, media: { id: registered.id, mime_type, ...extra } }));
      return wamid;
    };

    const voiceNote = await deliverMedia('audio', OGG, 'audio/ogg; codecs=opus', { voice: true });
    await eventually(() => repliesTo(phones.media), (replies) => replies.length === 1, 60_000);
    const voice = await inboundMessageByProviderId(business.businessId, voiceNote);
    expect(voice!.transcription).toMatch(/^transcribed: media-.*\.ogg$/);
    const heard = `[Audio transcription: ${voice!.transcription}]`;
    expect(promptOf((await completionsOf(since))[0]!)).toContainEqual({ role: 'user', content: heard });

    const photo = await deliverMedia('image', PNG, 'image/png', { caption: '¿Cuánto pagué?' });
    const replies = await eventually(() => repliesTo(phones.media), (found) => found.length === 2, 60_000);
    const image = await inboundMessageByProviderId(business.businessId, photo);
    expect(image!.transcription).toBeTruthy();
    const seen = `¿Cuánto pagué?\n[Image description: ${image!.transcription}]`;
    const prompt = promptOf((await completionsOf(since))[1]!);
    expect(prompt).toContainEqual({ role: 'user', content: heard });
    expect(prompt).toContainEqual({ role: 'user', content: seen });
    // The fake AI answers its last user line: the reply was written knowing what the photo shows.
    expect(replies[1]!.body).toMatchObject({ text: { body: `AI(${MODEL}): re: ${seen}` } });
  });
});

/** The usage the fake AI reported for a completion: it derives it from the prompt and reply lengths. */
async function completionUsage(record: AiRecord): Promise<{ total_tokens: number }> {
  const messages = (record.body as { messages: { content: string }[] }).messages;
  const promptTokens = Math.max(1, Math.ceil(messages.map((message) => message.content).join('\n').length / 4));
  return { total_tokens: promptTokens + Math.ceil(record.reply!.length / 4) };
}
