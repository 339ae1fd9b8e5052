import { KNOWN_CONVERSATION_UUID } from './testing/fake-conversations-service';
import { type GatewayHarness, startGatewayHarness } from './testing/gateway-harness';

const NOTES_PATH = '/v1/acme/conversation/notes';
const noteBody = { conversation: { uuid: KNOWN_CONVERSATION_UUID }, note: 'Called the customer' };

describe('Idempotency-Key', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterEach(() => gateway.reset());
  afterAll(() => gateway.close());

  const postNote = (key: string | undefined, body: unknown = noteBody) =>
    gateway.request(NOTES_PATH, { method: 'POST', json: body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });

  it('replays the first response for the same key and body, and does nothing again', async () => {
    const first = await postNote('key-1');
    const replay = await postNote('key-1', { note: noteBody.note, conversation: noteBody.conversation, ignored: 'field' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(await first.json());
    expect(replay.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(gateway.conversations.callsOf('addNote')).toHaveLength(1);
  });

  it('is 409 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    await postNote('key-1');
    const reused = await postNote('key-1', { ...noteBody, note: 'Another note' });
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(gateway.conversations.callsOf('addNote')).toHaveLength(1);
  });

  it('is 409 IDEMPOTENCY_KEY_REUSED for the same key on another endpoint', async () => {
    await postNote('key-1');
    const other = await gateway.request('/v1/acme/conversation/pending', { method: 'POST', json: noteBody, headers: { 'Idempotency-Key': 'key-1' } });
    expect(other.status).toBe(409);
  });

  it('is 409 IDEMPOTENCY_REQUEST_IN_PROGRESS while the first request runs', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    gateway.conversations.overrides.addNote = async () => {
      await released;
      return { conversation: { uuid: KNOWN_CONVERSATION_UUID }, note: { uuid: 'n', created_at: '2025-01-31T18:04:05.000Z' } };
    };
    const first = postNote('key-1');
    while (gateway.conversations.callsOf('addNote').length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const concurrent = await postNote('key-1');
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get('retry-after')).toBe('1');
    expect(((await concurrent.json()) as { code: string }).code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    release();
    expect((await first).status).toBe(201);
  });

  it('replays a client error the service answered', async () => {
    const body = { ...noteBody, conversation: { uuid: '99999999-2222-4333-8444-555555555555' } };
    expect((await postNote('key-1', body)).status).toBe(404);
    const replay = await postNote('key-1', body);
    expect(replay.status).toBe(404);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(gateway.conversations.callsOf('addNote')).toHaveLength(1);
  });

  it('releases the key after a 5xx so a retry runs', async () => {
    gateway.conversations.overrides.addNote = async () => {
      throw new Error('boom');
    };
    expect((await postNote('key-1')).status).toBe(500);
    delete gateway.conversations.overrides.addNote;
    const retry = await postNote('key-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('claims nothing when validation fails', async () => {
    expect((await postNote('key-1', { conversation: {} })).status).toBe(400);
    expect((await postNote('key-1')).status).toBe(201);
  });

  it.each(['', 'k'.repeat(256)])('is 400 INVALID_REQUEST for a key of length %#', async (key) => {
    const response = await postNote(key);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('Idempotency-Key');
  });

  it('without a key, every request runs', async () => {
    await postNote(undefined);
    await postNote(undefined);
    expect(gateway.conversations.callsOf('addNote')).toHaveLength(2);
  });
});
