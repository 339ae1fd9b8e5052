import { randomUUID } from 'node:crypto';
import { BusinessRepository, businessScope } from '@cmsg/dal';
import { type TestBusiness, contactSeed, createTestBusiness, fakeWamid, inboundMediaWebhook, inboundTextWebhook, seedStackDatabase, storedCollection, uniquePhone } from '@cmsg/testing';
import { aiProvider, channelOf, cloudApi, conversationById, deliverWebhook, eventually, inboundMessageByProviderId } from './inbound-fixtures';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
// The empty-wallet business's image: bytes of its own, so its vision calls can be told from other tests'.
const UNPAID_PNG = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(200, 9)]);
const OGG = Buffer.concat([Buffer.from('OggS\0', 'latin1'), Buffer.alloc(500, 3)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(300, 1)]);
const MIB = 1024 * 1024;

describe('POST /webhooks/chat: inbound media (CONTRACT 7, SPEC 7 and 8)', () => {
  let business: TestBusiness;
  let emptyWallet: TestBusiness;
  const ai = randomUUID();
  const phones = { image: uniquePhone(), audio: uniquePhone(), big: uniquePhone(), video: uniquePhone(), broke: uniquePhone() };
  const conversations = { image: randomUUID(), audio: randomUUID(), big: randomUUID(), video: randomUUID(), broke: randomUUID() };
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const WALLET = 50_000;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.vision_wallet_tokens = WALLET;
      seed.ai_employees = [{ uuid: ai, name: 'Vision', model: 'gpt-test', wallet_tokens: 10_000 }];
      contactSeed(seed, { phone: phones.image, conversation: { uuid: conversations.image } });
      contactSeed(seed, { phone: phones.audio, conversation: { uuid: conversations.audio } });
      // AI-owned and pending: no AI run is queued, so only the resolve guard is under test.
      contactSeed(seed, { phone: phones.big, conversation: { uuid: conversations.big, ai_employee: ai, inbox_status: 'pending' } });
      contactSeed(seed, { phone: phones.video, conversation: { uuid: conversations.video } });
    });
    emptyWallet = await createTestBusiness((seed) => {
      seed.vision_wallet_tokens = 0;
      contactSeed(seed, { phone: phones.broke, conversation: { uuid: conversations.broke } });
    });
  });

  /** The counter is recounted right after the message settles: wait for it. */
  const awaitingTranscription = (conversationUuid: string, expected: number) =>
    eventually(() => conversationById(conversationUuid), (conversation) => conversation?.media_awaiting_transcription === expected);

  const deliverMedia = async (target: TestBusiness, phone: string, media_type: 'image' | 'audio' | 'video', bytes: Buffer, mime_type: string, extra: { voice?: boolean; caption?: string } = {}) => {
    const registered = await cloudApi().registerMedia({ bytes, mime_type });
    const wamid = fakeWamid();
    const response = await deliverWebhook(
      inboundMediaWebhook({ ...channelOf(target), from: digits(phone), id: wamid, media_type, media: { id: registered.id, mime_type, ...extra } }),
    );
    expect(response.status).toBe(200);
    return { wamid, mediaId: registered.id };
  };

  it('stores an inbound image in GridFS and describes it with the vision model, charged to the vision wallet', async () => {
    const since = (await aiProvider().requests()).at(-1)?.seq ?? 0;
    const { wamid } = await deliverMedia(business, phones.image, 'image', PNG, 'image/png', { caption: 'mi recibo' });
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.media?.transcription_status === 'transcribed');
    expect(message).toMatchObject({ content_type: 'image', body: 'mi recibo', media_transcription_pending: false, transcription: expect.stringMatching(/^AI\(gpt-4o-mini\): re: /) });

    const [call] = (await aiProvider().requests({ endpoint: 'chat.completions', since })).filter((record) => JSON.stringify(record.body).includes('data:image/png;base64,'));
    expect(call).toBeDefined();
    expect(call!.reply).toBe(message!.transcription);

    const file = await storedCollection('files').findOne({ _id: message!.media!.file_uuid });
    expect(file).toMatchObject({ business_id: business.businessId, module: 'inbound_media', status: 'confirmed', mime_type: 'image/png', size: PNG.length, message_id: message!._id });
    // The charge is written just after the transcription.
    await eventually(async () => (await new BusinessRepository().findById(businessScope(business.businessId)))!.vision_wallet_tokens, (wallet) => wallet < WALLET);
    await awaitingTranscription(conversations.image, 0);
  });

  it('transcribes an inbound voice note through the speech-to-text API', async () => {
    const { wamid } = await deliverMedia(business, phones.audio, 'audio', OGG, 'audio/ogg; codecs=opus', { voice: true });
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.media?.transcription_status === 'transcribed');
    expect(message).toMatchObject({ content_type: 'audio', media_transcription_pending: false, transcription: expect.stringMatching(/^transcribed: media-.*\.ogg$/) });
    await awaitingTranscription(conversations.audio, 0);
  });

  it('leaves media over 20 MB awaiting transcription, which blocks resolving an AI-owned conversation', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20 * MIB + 10, 1)]);
    const { wamid } = await deliverMedia(business, phones.big, 'image', big, 'image/jpeg');
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.media?.transcription_status === 'untranscribable', 60_000);
    expect(message).toMatchObject({ media_transcription_pending: true, transcription: null, media: { size: big.length } });
    await awaitingTranscription(conversations.big, 1);

    const resolve = await business.api.post('/conversation/resolve', { conversation: { uuid: conversations.big } });
    expect(resolve.status).toBe(422);
    expect(resolve.body.code).toBe('TRANSCRIPTION_REQUIRED_TO_RESOLVE');
  });

  it('leaves media of a type it cannot transcribe (video) awaiting transcription', async () => {
    const { wamid } = await deliverMedia(business, phones.video, 'video', MP4, 'video/mp4');
    const message = await eventually(() => inboundMessageByProviderId(business.businessId, wamid), (found) => found?.media?.transcription_status === 'untranscribable');
    expect(message!.media_transcription_pending).toBe(true);
    expect(await storedCollection('files').findOne({ _id: message!.media!.file_uuid })).toMatchObject({ mime_type: 'video/mp4', size: MP4.length });
    await awaitingTranscription(conversations.video, 1);
  });

  it('leaves media awaiting transcription while the vision wallet is empty, without calling the AI', async () => {
    const since = (await aiProvider().requests()).at(-1)?.seq ?? 0;
    const { wamid } = await deliverMedia(emptyWallet, phones.broke, 'image', UNPAID_PNG, 'image/png');
    const message = await eventually(() => inboundMessageByProviderId(emptyWallet.businessId, wamid), (found) => found?.media?.transcription_status === 'wallet_empty');
    expect(message!.media_transcription_pending).toBe(true);
    await awaitingTranscription(conversations.broke, 1);
    const calls = (await aiProvider().requests({ since })).filter((record) => JSON.stringify(record.body ?? '').includes(UNPAID_PNG.toString('base64')));
    expect(calls).toEqual([]);
  });

  it('transcribes media left for an empty wallet once the wallet was topped up (a re-seed) and the customer writes again', async () => {
    const { wamid } = await deliverMedia(emptyWallet, phones.broke, 'image', UNPAID_PNG, 'image/png');
    await eventually(() => inboundMessageByProviderId(emptyWallet.businessId, wamid), (found) => found?.media?.transcription_status === 'wallet_empty');
    await seedStackDatabase({ businesses: [{ ...emptyWallet.seed, contacts: [], vision_wallet_tokens: WALLET }] });
    const since = (await aiProvider().requests()).at(-1)?.seq ?? 0;

    const next = fakeWamid();
    await deliverWebhook(inboundTextWebhook({ ...channelOf(emptyWallet), from: digits(phones.broke), id: next, text: '¿Ya vieron mi foto?' }));
    const message = await eventually(() => inboundMessageByProviderId(emptyWallet.businessId, wamid), (found) => found?.media?.transcription_status === 'transcribed');
    expect(message).toMatchObject({ media_transcription_pending: false, transcription: expect.stringMatching(/^AI\(gpt-4o-mini\): re: /) });
    // Both images of the previous test and of this one were waiting; both are transcribed now.
    await awaitingTranscription(conversations.broke, 0);
    const calls = (await aiProvider().requests({ endpoint: 'chat.completions', since })).filter((record) => JSON.stringify(record.body).includes(UNPAID_PNG.toString('base64')));
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(await inboundMessageByProviderId(emptyWallet.businessId, next)).toMatchObject({ ingest: { conversation_applied: true } });
  });
});
