import { CatalogError } from '@cmsg/errors';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';
import { KNOWN_CONVERSATION_UUID, TEST_BUSINESS, snapshotOfKnownConversation } from '../testing/fake-conversations-service';

const caller = { business_id: TEST_BUSINESS.business_id, token_uuid: TEST_BUSINESS.token_uuid };
const conversation = { uuid: KNOWN_CONVERSATION_UUID };

describe('conversation routes', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterEach(() => gateway.reset());
  afterAll(() => gateway.close());

  describe('POST /{slug}/conversation/status', () => {
    it('answers 200 with the snapshot, absent fields as null', async () => {
      const response = await gateway.request('/v1/acme/conversation/status', { method: 'POST', json: { conversation } });
      expect(response.status).toBe(200);
      const canned = snapshotOfKnownConversation();
      expect(await response.json()).toEqual({
        conversation: { uuid: KNOWN_CONVERSATION_UUID, phone: '5215512345678', chat_user_id: null },
        window: { status: 'open', expires_at: null, hours_remaining: 3.5 },
        assignment: { ai_employee: null },
        mailbox: canned.mailbox,
        tags: canned.tags,
        inbox_status: 'pending',
        last_message: null,
        is_tester: false,
        tester_virtual_now: null,
      });
    });

    it('sends the caller and only uuid/chat_user_id/phone/channel of the reference', async () => {
      await gateway.request('/v1/acme/conversation/status', {
        method: 'POST',
        json: { conversation: { ...conversation, username: 'ana', channel: 'ch_main' }, ignored: true },
      });
      expect(gateway.conversations.callsOf('getConversationStatus')[0].request).toEqual({ caller, conversation: { ...conversation, channel: 'ch_main' } });
    });

    it('is 400 for a username-only reference', async () => {
      const response = await gateway.request('/v1/acme/conversation/status', { method: 'POST', json: { conversation: { username: 'ana' } } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 'INVALID_REQUEST', message: 'Invalid request: conversation: one of uuid, chat_user_id, phone is required.' });
    });
  });

  describe('POST /{slug}/conversation/notes', () => {
    it('answers 201 with the conversation and the note', async () => {
      const response = await gateway.request('/v1/acme/conversation/notes', { method: 'POST', json: { conversation, note: 'Called the customer' } });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        conversation,
        note: { uuid: '77777777-6666-4555-8444-333333333333', created_at: '2025-01-31T18:04:05.000Z' },
      });
      expect(gateway.conversations.callsOf('addNote')[0].request).toEqual({ caller, conversation, note: 'Called the customer', operation_id: '' });
    });

    it('is 400 naming the note when it is longer than 5000 characters', async () => {
      const response = await gateway.request('/v1/acme/conversation/notes', { method: 'POST', json: { conversation, note: 'x'.repeat(5001) } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain('note');
    });

    it.each([
      ['PHONE_NUMBER_AMBIGUOUS', 409],
      ['USERNAME_AMBIGUOUS', 409],
      ['CHANNEL_NOT_FOUND', 404],
    ] as const)('passes %s through with status %i', async (code, status) => {
      gateway.conversations.overrides.addNote = async () => {
        throw new CatalogError(code);
      };
      const response = await gateway.request('/v1/acme/conversation/notes', { method: 'POST', json: { conversation: { phone: '+52 55' }, note: 'x' } });
      expect(response.status).toBe(status);
      expect(((await response.json()) as { code: string }).code).toBe(code);
    });
  });

  describe.each([
    ['pending', 'markPending'],
    ['resolve', 'markResolved'],
  ] as const)('POST /{slug}/conversation/%s', (path, method) => {
    it('answers 200 with the conversation and its inbox status', async () => {
      const response = await gateway.request(`/v1/acme/conversation/${path}`, { method: 'POST', json: { conversation } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ conversation, inbox_status: path === 'pending' ? 'pending' : 'resolved' });
      expect(gateway.conversations.callsOf(method)[0].request).toEqual({ caller, conversation });
    });

    it('is 404 CONVERSATION_NOT_FOUND when the reference resolves to nothing', async () => {
      const response = await gateway.request(`/v1/acme/conversation/${path}`, { method: 'POST', json: { conversation: { chat_user_id: 'nobody' } } });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('CONVERSATION_NOT_FOUND');
    });
  });

  it('passes TRANSCRIPTION_REQUIRED_TO_RESOLVE through as 422', async () => {
    gateway.conversations.overrides.markResolved = async () => {
      throw new CatalogError('TRANSCRIPTION_REQUIRED_TO_RESOLVE');
    };
    const response = await gateway.request('/v1/acme/conversation/resolve', { method: 'POST', json: { conversation } });
    expect(response.status).toBe(422);
  });
});
