import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogError } from '@cmsg/errors';
import { CloudApiClient } from './cloud-api-client';
import { cloudApiErrorOf, isTransientCloudApiError } from './cloud-api-failure';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A scripted loopback server: each test sets how it answers and reads what it received. */
let server: Server;
let origin: string;
let seen: SeenRequest[] = [];
let answer: (request: SeenRequest, res: ServerResponse) => void;

const channel = { phone_number_id: '106540352242922', access_token: 'EAAJB-secret-token' };
/** The waits the client asked for between retries; none is really waited. */
let waits: number[] = [];
const client = () =>
  new CloudApiClient({
    baseUrl: `${origin}/v21.0/`,
    timeoutMs: 300,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function failureOf(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return error as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  waits = [];
  answer = (_request, res) =>
    json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: '+5215512345678', wa_id: '5215512345678' }], messages: [{ id: 'wamid.HBgM' }] });
});

describe('CloudApiClient.sendMessage', () => {
  it('POSTs the Cloud API body to /{phone_number_id}/messages with the bearer token', async () => {
    const result = await client().sendMessage(channel, { to: { phone: '+52 1 55 1234 5678' }, content: { type: 'text', body: 'Hola' } });

    expect(result).toEqual({ provider_message_id: 'wamid.HBgM', wa_id: '5215512345678' });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v21.0/106540352242922/messages');
    expect(request?.headers.authorization).toBe('Bearer EAAJB-secret-token');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5215512345678',
      type: 'text',
      text: { body: 'Hola', preview_url: false },
    });
  });

  it('refuses a phone-less contact when BSUID sending is off, without calling the provider', async () => {
    const error = await failureOf(client().sendMessage(channel, { to: { user_id: 'US.1349' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('BSUID_SEND_DISABLED');
    expect(seen).toHaveLength(0);
  });

  it('sends by `recipient` when BSUID sending is on', async () => {
    const bsuidClient = new CloudApiClient({ baseUrl: `${origin}/v21.0`, bsuidSendEnabled: true });
    await bsuidClient.sendMessage(channel, { to: { user_id: 'US.1349' }, content: { type: 'text', body: 'x' } });
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({ recipient: 'US.1349' });
    expect(JSON.parse(seen[0]?.body ?? '')).not.toHaveProperty('to');
  });

  it('is PREPARE_FAILED, without calling the provider, for a body it cannot build', async () => {
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'image', link: 'not a url' } }));
    expect(error.code).toBe('PREPARE_FAILED');
    expect(seen).toHaveLength(0);
  });

  it('is CHANNEL_NOT_CONFIGURED without an access token', async () => {
    const error = await failureOf(client().sendMessage({ ...channel, access_token: '' }, { to: { phone: '1' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('CHANNEL_NOT_CONFIGURED');
  });

  // 131026 became RECIPIENT_UNDELIVERABLE (CONTRACT 10.3, provider-outcome.spec.ts); 131009 is a code that still maps to SEND_FAILED.
  it('maps a provider 4xx without an outcome of its own to SEND_FAILED (502) keeping its code and message, not transient', async () => {
    answer = (_request, res) =>
      json(res, 400, {
        error: {
          message: '(#131009) Parameter value is not valid',
          type: 'OAuthException',
          code: 131009,
          error_data: { messaging_product: 'whatsapp', details: 'Recipient is not a valid WhatsApp user' },
          fbtrace_id: 'AbC123',
        },
      });
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('SEND_FAILED');
    expect(error.httpStatus).toBe(502);
    expect(error.providerCode).toBe('131009');
    expect(error.message).toContain('code 131009');
    expect(error.message).toContain('Parameter value is not valid');
    expect(error.message).toContain('Recipient is not a valid WhatsApp user');
    expect(error.message).not.toContain(channel.access_token);
    expect(isTransientCloudApiError(error)).toBe(false);
    expect(cloudApiErrorOf(error)).toMatchObject({ code: 131009, fbtrace_id: 'AbC123' });
  });

  it.each([
    [131047, 'WINDOW_CLOSED', 422],
    [131026, 'RECIPIENT_UNDELIVERABLE', 422],
    [131049, 'MARKETING_LIMIT_REACHED', 422],
    [131050, 'CONTACT_OPTED_OUT', 409],
    [130472, 'RECIPIENT_IN_EXPERIMENT', 422],
  ])('maps provider code %i to %s (%i) after one call, keeping the code as providerCode', async (code, catalogCode, httpStatus) => {
    answer = (_request, res) => json(res, 400, { error: { message: `(#${code}) refused`, type: 'OAuthException', code, error_data: { details: 'why' }, fbtrace_id: 'T' } });
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe(catalogCode);
    expect(error.httpStatus).toBe(httpStatus);
    expect(error.providerCode).toBe(String(code));
    expect(error.message).toContain(`code ${code}`);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries 130429 with exponential back-off from 1 s, and sends once when the provider then accepts', async () => {
    let calls = 0;
    answer = (_request, res) => {
      calls += 1;
      if (calls <= 2) json(res, 400, { error: { message: '(#130429) Rate limit hit', code: 130429 } });
      else json(res, 200, { messaging_product: 'whatsapp', contacts: [{ wa_id: '1555' }], messages: [{ id: 'wamid.after-retries' }] });
    };
    const result = await client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } });
    expect(result.provider_message_id).toBe('wamid.after-retries');
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.body)).size).toBe(1);
    // random 0.5 with a jitter of half the wait: 1 s * 1.25, then 2 s * 1.25.
    expect(waits).toEqual([1_250, 2_500]);
  });

  it('gives 130429 up after 5 calls as SEND_FAILED with its provider code', async () => {
    answer = (_request, res) => json(res, 400, { error: { message: '(#130429) Rate limit hit', code: 130429 } });
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('SEND_FAILED');
    expect(error.providerCode).toBe('130429');
    expect(seen).toHaveLength(5);
    expect(waits).toEqual([1_250, 2_500, 5_000, 10_000]);
  });

  it('retries 131056 after 6 s, at most 3 calls in all', async () => {
    let calls = 0;
    answer = (_request, res) => {
      calls += 1;
      if (calls === 1) json(res, 400, { error: { message: '(#131056) Pair rate limit hit', code: 131056 } });
      else json(res, 200, { messaging_product: 'whatsapp', messages: [{ id: 'wamid.paired' }] });
    };
    expect((await client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } })).provider_message_id).toBe('wamid.paired');
    expect(waits).toEqual([6_000]);

    seen = [];
    waits = [];
    answer = (_request, res) => json(res, 400, { error: { message: '(#131056) Pair rate limit hit', code: 131056 } });
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error).toMatchObject({ code: 'SEND_FAILED', providerCode: '131056' });
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([6_000, 6_000]);
  });

  it('never retries a call that got no answer: the provider may have taken it', async () => {
    answer = () => undefined;
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error).toMatchObject({ code: 'SEND_FAILED', providerCode: null });
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('marks 5xx and provider rate limits as transient SEND_FAILED', async () => {
    answer = (_request, res) => json(res, 503, { error: { message: 'Service temporarily unavailable', code: 2 } });
    const unavailable = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(unavailable.code).toBe('SEND_FAILED');
    expect(isTransientCloudApiError(unavailable)).toBe(true);

    answer = (_request, res) => json(res, 400, { error: { message: '(#131056) Pair rate limit hit', code: 131056 } });
    const pairLimit = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(isTransientCloudApiError(pairLimit)).toBe(true);
  });

  it('maps a provider that does not answer in time to transient SEND_FAILED', async () => {
    answer = () => undefined;
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1555' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('SEND_FAILED');
    expect(error.message).toContain('no answer within 300 ms');
    expect(isTransientCloudApiError(error)).toBe(true);
  });

  it('maps a refused connection to transient SEND_FAILED', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const error = await failureOf(
      new CloudApiClient({ baseUrl: `http://127.0.0.1:${port}/v21.0` }).sendMessage(channel, { to: { phone: '1' }, content: { type: 'text', body: 'x' } }),
    );
    expect(error.code).toBe('SEND_FAILED');
    expect(error.message).toContain('network error');
    expect(isTransientCloudApiError(error)).toBe(true);
  });

  it('is SEND_FAILED when a 200 answer is not JSON or has no message id', async () => {
    answer = (_request, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>');
    expect((await failureOf(client().sendMessage(channel, { to: { phone: '1' }, content: { type: 'text', body: 'x' } }))).code).toBe('SEND_FAILED');

    answer = (_request, res) => json(res, 200, { messaging_product: 'whatsapp', messages: [] });
    const error = await failureOf(client().sendMessage(channel, { to: { phone: '1' }, content: { type: 'text', body: 'x' } }));
    expect(error.code).toBe('SEND_FAILED');
    expect(error.message).toContain('no message id');
  });
});

describe('CloudApiClient media', () => {
  it('getMediaUrl GETs /{media-id} with the bearer token', async () => {
    answer = (_request, res) =>
      json(res, 200, { messaging_product: 'whatsapp', url: `${origin}/dl?mid=9`, mime_type: 'image/jpeg', sha256: 'h', file_size: 1234, id: '9' });
    await expect(client().getMediaUrl('9', 'media-token')).resolves.toEqual({
      url: `${origin}/dl?mid=9`,
      mime_type: 'image/jpeg',
      sha256: 'h',
      file_size: 1234,
    });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v21.0/9', headers: { authorization: 'Bearer media-token' } });
  });

  it('getMediaUrl maps provider errors to FETCH_FAILED', async () => {
    answer = (_request, res) => json(res, 400, { error: { message: 'Unsupported get request.', code: 100, error_subcode: 33 } });
    const error = await failureOf(client().getMediaUrl('missing', 'media-token'));
    expect(error.code).toBe('FETCH_FAILED');
    expect(error.message).toContain('code 100/33');
  });

  it('downloadMedia streams the bytes, sending the bearer token', async () => {
    const bytes = Buffer.alloc(100_000, 7);
    answer = (_request, res) => res.writeHead(200, { 'content-type': 'audio/ogg', 'content-length': bytes.length }).end(bytes);
    const download = await client().downloadMedia(`${origin}/dl?mid=9`, 'media-token');
    expect(download.mime_type).toBe('audio/ogg');
    expect(download.content_length).toBe(bytes.length);
    expect((await readAll(download.stream)).equals(bytes)).toBe(true);
    expect(seen[0]?.headers.authorization).toBe('Bearer media-token');
  });

  it('downloadMedia refuses media over maxBytes, by header or while streaming', async () => {
    answer = (_request, res) => res.writeHead(200, { 'content-length': 10 }).end(Buffer.alloc(10));
    expect((await failureOf(client().downloadMedia(`${origin}/dl`, 't', { maxBytes: 5 }))).code).toBe('FILE_TOO_LARGE');

    answer = (_request, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(Buffer.alloc(4));
      res.end(Buffer.alloc(4));
    };
    const download = await client().downloadMedia(`${origin}/dl`, 't', { maxBytes: 5 });
    await expect(readAll(download.stream)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('downloadMedia maps an error answer to FETCH_FAILED', async () => {
    answer = (_request, res) => json(res, 401, { error: { message: 'Invalid OAuth access token', code: 190 } });
    const error = await failureOf(client().downloadMedia(`${origin}/dl`, 'bad'));
    expect(error.code).toBe('FETCH_FAILED');
    expect(error.message).toContain('code 190');
  });

  it('downloadMedia fails a stalled body instead of hanging', async () => {
    answer = (_request, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(Buffer.alloc(16));
    };
    const download = await client().downloadMedia(`${origin}/dl`, 't');
    await expect(readAll(download.stream)).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });
});
