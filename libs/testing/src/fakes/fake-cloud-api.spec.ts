import { FakeCloudApi } from './fake-cloud-api';
import { FakeCloudApiRemote } from './fake-remote-control';

const fake = new FakeCloudApi({ accessTokens: { 'pnid-locked': 'right-token' } });
let baseUrl: string;
const token = 'EAAG-test-token';

function send(body: unknown, options: { phoneNumberId?: string; auth?: string | null } = {}) {
  const auth = options.auth === undefined ? `Bearer ${token}` : options.auth;
  return fetch(`${baseUrl}/${options.phoneNumberId ?? '106540352242922'}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const text = (to: string, body = 'hello') => ({ messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body } });

beforeAll(async () => {
  baseUrl = await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('FakeCloudApi messages endpoint', () => {
  it('answers like the Cloud API and records the request', async () => {
    const response = await send(text('+1 555 0100'));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { messaging_product: string; contacts: unknown[]; messages: { id: string }[] };
    expect(answer).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+1 555 0100', wa_id: '15550100' }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]+$/) }],
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v21\.0$/);

    const [record] = fake.requests();
    expect(record).toMatchObject({
      seq: expect.any(Number),
      at_ms: expect.any(Number),
      kind: 'message',
      method: 'POST',
      path: '/v21.0/106540352242922/messages',
      phone_number_id: '106540352242922',
      authorization: `Bearer ${token}`,
      body: text('+1 555 0100'),
      to: '+1 555 0100',
      status: 200,
      provider_message_id: answer.messages[0]?.id,
    });
    expect(Date.parse(record?.at ?? '')).not.toBeNaN();
    expect(fake.sentMessages({ to: '15550100' })).toHaveLength(1);
  });

  it('answers a BSUID send with the user id', async () => {
    const response = await send({ messaging_product: 'whatsapp', recipient: 'US.1349', type: 'text', text: { body: 'hi' } });
    expect(await response.json()).toMatchObject({ contacts: [{ input: 'US.1349', user_id: 'US.1349' }] });
  });

  it('answers templates with message_status accepted', async () => {
    const response = await send({ messaging_product: 'whatsapp', to: '1555', type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } });
    expect(await response.json()).toMatchObject({ messages: [{ message_status: 'accepted' }] });
  });

  it('refuses a missing or malformed bearer token with code 190', async () => {
    for (const auth of [null, 'Basic abc', 'Bearer ']) {
      const response = await send(text('1555'), { auth });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 190, type: 'OAuthException', fbtrace_id: expect.any(String) } });
    }
    expect(fake.sentMessages()).toHaveLength(0);
  });

  it('enforces a configured access token per phone number id', async () => {
    expect((await send(text('1555'), { phoneNumberId: 'pnid-locked' })).status).toBe(401);
    expect((await send(text('1555'), { phoneNumberId: 'pnid-locked', auth: 'Bearer right-token' })).status).toBe(200);
  });

  it.each([
    ['not JSON', '{nope'],
    ['another messaging_product', { ...text('1555'), messaging_product: 'sms' }],
    ['no recipient', { messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } }],
    ['an empty text', text('1555', '')],
    ['an unknown type', { messaging_product: 'whatsapp', to: '1555', type: 'hologram', hologram: {} }],
    ['a type without its object', { messaging_product: 'whatsapp', to: '1555', type: 'image' }],
    ['four reply buttons', {
      messaging_product: 'whatsapp',
      to: '1555',
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'b' }, action: { buttons: [1, 2, 3, 4].map((n) => ({ type: 'reply', reply: { id: `${n}`, title: `${n}` } })) } },
    }],
    ['a template without language', { messaging_product: 'whatsapp', to: '1555', type: 'template', template: { name: 'x' } }],
  ])('refuses %s with 400 code 100', async (_case, body) => {
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 100, message: '(#100) Invalid parameter' } });
  });

  it('answers unknown paths like the Graph API', async () => {
    const response = await fetch(`${baseUrl}/106540352242922/whatever`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 2500 } });
  });
});

describe('FakeCloudApi rules', () => {
  it('fails only the matching recipient, for as many times as asked', async () => {
    fake.addRule({ match: { to: '+1 555 0199' }, status: 500, times: 2 });
    expect((await send(text('15550199'))).status).toBe(500);
    expect((await send(text('15550100'))).status).toBe(200);
    const second = await send(text('15550199'));
    expect(second.status).toBe(500);
    expect(await second.json()).toMatchObject({ error: { code: 1, type: 'OAuthException' } });
    expect((await send(text('15550199'))).status).toBe(200);
    expect(fake.rules.list()).toHaveLength(0);
  });

  it('answers a 4xx with the Cloud API error body the rule describes', async () => {
    fake.addRule({ status: 400, error: { message: '(#131026) Message undeliverable', code: 131026, details: 'Receiver is incapable' } });
    const response = await send(text('1555'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: '(#131026) Message undeliverable',
        type: 'OAuthException',
        code: 131026,
        error_data: { messaging_product: 'whatsapp', details: 'Receiver is incapable' },
        fbtrace_id: expect.any(String),
      },
    });
  });

  it('fails a chosen recipient with a provider code alone, as the real API answers it, for the next N calls', async () => {
    fake.addRule({ match: { to: '+1 555 0142' }, error: { code: 131026 }, times: 2 });
    for (let call = 0; call < 2; call += 1) {
      const response = await send(text('15550142'));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          message: '(#131026) Message undeliverable',
          type: 'OAuthException',
          code: 131026,
          error_data: { messaging_product: 'whatsapp', details: expect.stringContaining('Unable to deliver message') },
          fbtrace_id: expect.any(String),
        },
      });
    }
    expect((await send(text('15550142'))).status).toBe(200);
    expect(fake.sentMessages({ to: '15550142' })).toHaveLength(1);
    expect(fake.requests({ kind: 'message', to: '15550142' }).map((record) => record.status)).toEqual([400, 400, 200]);
  });

  it.each([131047, 131048, 131049, 131050, 130472, 130429, 131056])('answers code %i with its own message and details, always when no times is given', async (code) => {
    fake.addRule({ match: { to: '15550143' }, error: { code } });
    for (let call = 0; call < 3; call += 1) {
      const response = await send(text('+1 555 0143'));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; code: number; error_data: { details: string } } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(new RegExp(`^\\(#${code}\\) .+`));
      expect(body.error.error_data.details.length).toBeGreaterThan(0);
    }
    expect((await send(text('15550144'))).status).toBe(200);
  });

  it.each([
    [130429, 'Rate limit hit'],
    [131048, 'Spam rate limit hit'],
    [131056, '(Business Account, Consumer Account) pair rate limit hit'],
  ])('fails a chosen recipient with rate limit %i for the next N calls only', async (code, title) => {
    fake.addRule({ match: { to: '+1 555 0145' }, error: { code }, times: 2 });
    for (let call = 0; call < 2; call += 1) {
      const response = await send(text('15550145'));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code, message: `(#${code}) ${title}`, type: 'OAuthException', fbtrace_id: expect.any(String) } });
    }
    expect((await send(text('15550146'))).status).toBe(200);
    expect((await send(text('15550145'))).status).toBe(200);
    expect(fake.requests({ kind: 'message', to: '15550145' }).map((record) => [record.status, record.error_code])).toEqual([
      [400, code],
      [400, code],
      [200, undefined],
    ]);
    expect(fake.rules.list()).toHaveLength(0);
  });

  it('delays the answer', async () => {
    fake.addRule({ match: { phone_number_id: 'slow' }, delay_ms: 150 });
    const started = Date.now();
    expect((await send(text('1555'), { phoneNumberId: 'slow' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drops the connection', async () => {
    fake.addRule({ disconnect: true, times: 1 });
    await expect(send(text('1555'))).rejects.toThrow();
    expect(fake.requests()[0]).toMatchObject({ status: 0 });
  });

  it('matches by message type', async () => {
    fake.addRule({ match: { type: 'template' }, status: 400, error: { code: 132001, message: 'Template name does not exist in the translation' } });
    expect((await send(text('1555'))).status).toBe(200);
    const response = await send({ messaging_product: 'whatsapp', to: '1555', type: 'template', template: { name: 'x', language: { code: 'en' } } });
    expect(await response.json()).toMatchObject({ error: { code: 132001 } });
  });
});

describe('FakeCloudApi media', () => {
  it('serves registered media through GET /{media_id} and its download URL, with a bearer token', async () => {
    const bytes = Buffer.from('OggS fake voice note');
    const media = fake.registerMedia({ bytes, mime_type: 'audio/ogg', id: '1003383421387256' });

    const infoResponse = await fetch(`${baseUrl}/1003383421387256`, { headers: { authorization: `Bearer ${token}` } });
    const info = (await infoResponse.json()) as { url: string };
    expect(info).toEqual({
      messaging_product: 'whatsapp',
      id: '1003383421387256',
      url: media.url,
      mime_type: 'audio/ogg',
      sha256: media.sha256,
      file_size: bytes.length,
    });

    expect((await fetch(info.url)).status).toBe(401);
    const download = await fetch(info.url, { headers: { authorization: `Bearer ${token}` } });
    expect(download.headers.get('content-type')).toBe('audio/ogg');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect(fake.requests().map((record) => record.kind)).toEqual(['media_info', 'media_download', 'media_download']);
  });

  it('answers an unknown media id with code 100 subcode 33', async () => {
    const response = await fetch(`${baseUrl}/999`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 100, error_subcode: 33 } });
  });
});

describe('FakeCloudApi control endpoints', () => {
  const remote = () => new FakeCloudApiRemote(baseUrl);

  it('lists requests with filters and since', async () => {
    await send(text('1555000001'));
    await send(text('1555000002'), { phoneNumberId: 'other' });
    const all = await remote().requests();
    expect(all).toHaveLength(2);
    expect(await remote().requests({ to: '+1555000002' })).toEqual([all[1]]);
    expect(await remote().requests({ phone_number_id: 'other' })).toEqual([all[1]]);
    expect(await remote().requests({ since: all[0]?.seq })).toEqual([all[1]]);
    expect(await remote().requests({ kind: 'media_info' })).toEqual([]);
  });

  it('adds, lists and removes rules', async () => {
    const [failing, slow] = await remote().addRules({ match: { to: '1555' }, status: 503 }, { delay_ms: 1 });
    expect(fake.rules.list().map((rule) => rule.id)).toEqual([failing, slow]);
    expect((await send(text('1555'))).status).toBe(503);
    await remote().removeRule(failing!);
    expect((await send(text('1555'))).status).toBe(200);
    await remote().clearRules();
    expect(fake.rules.list()).toEqual([]);
  });

  it('registers media and resets everything', async () => {
    const media = await remote().registerMedia({ bytes: Buffer.from([1, 2, 3]), mime_type: 'image/png' });
    const download = await fetch(media.url, { headers: { authorization: `Bearer ${token}` } });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from([1, 2, 3]));

    await send(text('1555'));
    await remote().addRules({ status: 500 });
    await remote().reset();
    expect(fake.requests()).toEqual([]);
    expect(fake.rules.list()).toEqual([]);
    expect((await fetch(`${baseUrl}/${media.id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(400);
  });

  it('waits for sends made in the background', async () => {
    setTimeout(() => void send(text('15557777')), 50);
    const [sent] = await remote().waitForMessages(1, { to: '15557777' }, 2000);
    expect(sent?.body).toMatchObject({ to: '15557777' });
    await expect(fake.waitForMessages(2, { to: '15557777' }, 100)).rejects.toThrow('1 of 2 messages');
  });

  it('refuses a malformed rule and an unknown control route', async () => {
    expect((await fetch(`${fake.origin}/_fake/rules`, { method: 'POST', body: '42' })).status).toBe(400);
    expect((await fetch(`${fake.origin}/_fake/nothing`)).status).toBe(404);
  });
});
