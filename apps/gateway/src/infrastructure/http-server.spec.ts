import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEEP_ALIVE_TIMEOUT_MS, closeHttpServer, listen } from './http-server';

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('closeHttpServer', () => {
  it('lets an in-flight request finish, closes idle keep-alive sockets and refuses new connections', async () => {
    const app = express();
    app.get('/fast', (_req, res) => void res.send('fast'));
    app.get('/slow', (_req, res) => void setTimeout(() => res.send('slow'), 200));
    const server = await listen(app, 0);
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true });

    await get(port, '/fast', agent);
    const inFlight = get(port, '/slow', agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closeHttpServer(server);

    await expect(inFlight).resolves.toEqual({ status: 200, body: 'slow' });
    await expect(closed).resolves.toBeUndefined();
    await expect(get(port, '/fast', new http.Agent())).rejects.toThrow(/ECONNREFUSED/);
    agent.destroy();
  });
});

describe('listen', () => {
  it('keeps idle keep-alive connections past the 60 s idle timeout of the load balancers in front', async () => {
    const server = await listen(express(), 0);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    await closeHttpServer(server);
  });
});
