import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CmsgApiError, unwrap } from './api-error';
import { createCmsgClient, gatewayOrigin } from './create-client';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** A local HTTP server standing in for the gateway: records each request, answers what the test queued. */
function recordingServer() {
  const seen: Seen[] = [];
  const answers: { status: number; body: string; headers?: Record<string, string> }[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const answer = answers.shift() ?? { status: 500, body: '' };
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c', ...answer.headers });
    res.end(answer.body);
  });
  return { server, seen, answers };
}

describe('createCmsgClient', () => {
  const { server, seen, answers } = recordingServer();
  let origin: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    seen.length = 0;
  });

  it('calls the business endpoints below /v1/{slug} with the bearer token', async () => {
    const cmsg = createCmsgClient({ baseUrl: `${origin}/v1/`, slug: 'acme shop', token: 'cmsg_abc' });
    answers.push({ status: 200, body: JSON.stringify({ items: [], has_more: false, next_cursor: '' }) });
    const page = unwrap(await cmsg.GET('/conversations', { params: { query: { limit: 2, order: 'asc' } } }));
    expect(page).toEqual({ items: [], has_more: false, next_cursor: '' });
    expect(seen).toEqual([{ method: 'GET', url: '/v1/acme%20shop/conversations?limit=2&order=asc', authorization: 'Bearer cmsg_abc', body: '' }]);

    answers.push({ status: 201, body: JSON.stringify({ conversation: { uuid: 'c' }, note: { uuid: 'n', created_at: 'now' } }) });
    await cmsg.POST('/conversation/notes', { body: { conversation: { phone: '+52 55' }, note: 'hi' } });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/v1/acme%20shop/conversation/notes', body: JSON.stringify({ conversation: { phone: '+52 55' }, note: 'hi' }) });

    answers.push({ status: 200, body: '{}' });
    await cmsg.GET('/action-groups/{uuid}', { params: { path: { uuid: 'a/b' } } });
    expect(seen[2]!.url).toBe('/v1/acme%20shop/action-groups/a%2Fb');
  });

  it('reaches the routes outside the business scope by their full path', async () => {
    const cmsg = createCmsgClient({ baseUrl: origin, slug: 'acme', token: 'cmsg_abc' });
    answers.push({ status: 200, body: JSON.stringify({ status: 'ok' }) });
    expect(unwrap(await cmsg.gateway.GET('/healthz'))).toEqual({ status: 'ok' });
    expect(seen[0]!.url).toBe('/healthz');
  });

  it('gives an error answer typed as {code, message} with its status, or throws it from unwrap', async () => {
    const cmsg = createCmsgClient({ baseUrl: origin, slug: 'acme', token: 'cmsg_abc' });
    const notFound = { code: 'CONVERSATION_NOT_FOUND', message: 'No such conversation.' };
    answers.push({ status: 404, body: JSON.stringify(notFound) }, { status: 404, body: JSON.stringify(notFound) });
    const result = await cmsg.POST('/conversation/status', { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } } });
    expect(result.error).toEqual(notFound);
    expect(result.response.status).toBe(404);

    const thrown = await cmsg.POST('/conversation/status', { body: { conversation: { uuid: '0b6d5c1e-8f3a-4c2d-9e7b-5a4f3e2d1c0b' } } }).then(unwrap).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(CmsgApiError);
    expect(thrown).toMatchObject({ status: 404, code: 'CONVERSATION_NOT_FOUND', message: 'No such conversation.', requestId: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' });
  });

  it('turns an answer that is not the API error body into UNKNOWN_ERROR with the status', async () => {
    const cmsg = createCmsgClient({ baseUrl: origin, slug: 'acme', token: 'cmsg_abc' });
    answers.push({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const thrown = await cmsg.GET('/channels').then(unwrap).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ status: 502, code: 'UNKNOWN_ERROR', message: expect.stringContaining('Bad gateway') });
  });
});

describe('gatewayOrigin', () => {
  it.each([
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['http://localhost:8080/v1', 'http://localhost:8080'],
    ['https://api.example.com/inbox/v1/', 'https://api.example.com/inbox'],
  ])('%s -> %s', (baseUrl, origin) => {
    expect(gatewayOrigin(baseUrl)).toBe(origin);
  });
});
