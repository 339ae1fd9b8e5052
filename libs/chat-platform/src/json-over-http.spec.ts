import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonOverHttp } from './json-over-http';

let server: Server;
let url: string;
let handle: (request: IncomingMessage, response: ServerResponse) => void;
const remotePorts: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    remotePorts.push(request.socket.remotePort ?? 0);
    handle(request, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0/123/messages`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});

beforeEach(() => {
  remotePorts.length = 0;
});

const echo = (request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, body: Buffer.concat(chunks).toString(), auth: request.headers.authorization })));
};

describe('JsonOverHttp', () => {
  it('sends the method, headers and body, and answers the status and the body as text', async () => {
    handle = echo;
    const answer = await new JsonOverHttp().call(url, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"é":1}' }, 1_000);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', body: '{"é":1}', auth: 'Bearer t' });
  });

  it('makes the next call on the connection the last one kept alive', async () => {
    handle = echo;
    const http = new JsonOverHttp();
    await http.call(url, { method: 'GET', headers: {} }, 1_000);
    await http.call(url, { method: 'GET', headers: {} }, 1_000);
    expect(remotePorts).toHaveLength(2);
    expect(remotePorts[1]).toBe(remotePorts[0]);
  });

  it('closes a connection idle past its limit, and the next call opens another', async () => {
    handle = echo;
    const http = new JsonOverHttp(50);
    await http.call(url, { method: 'GET', headers: {} }, 1_000);
    await new Promise((waited) => setTimeout(waited, 200));
    await http.call(url, { method: 'GET', headers: {} }, 1_000);
    expect(remotePorts[1]).not.toBe(remotePorts[0]);
  });

  it('lets a call under way outlast the idle limit', async () => {
    handle = (request, response) => setTimeout(() => echo(request, response), 300);
    const answer = await new JsonOverHttp(50).call(url, { method: 'GET', headers: {} }, 2_000);
    expect(answer.status).toBe(201);
  });

  it('rejects as a timeout when the whole answer is not in within its time, though its headers were', async () => {
    handle = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"messages":');
    };
    const startedAt = Date.now();
    await expect(new JsonOverHttp().call(url, { method: 'POST', headers: {}, body: '{}' }, 200)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });

  it('rejects an answer whose connection drops before its end', async () => {
    handle = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"messages":', () => response.socket?.destroy());
    };
    await expect(new JsonOverHttp().call(url, { method: 'GET', headers: {} }, 2_000)).rejects.toThrow();
  });

  it('rejects a refused connection with the network error', async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((stopped) => closed.close(stopped));
    await expect(new JsonOverHttp().call(`http://127.0.0.1:${port}/x`, { method: 'GET', headers: {} }, 1_000)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
