import type { AddressInfo } from 'node:net';
import type { Logger } from '@cmsg/platform';
import express from 'express';
import { Writable } from 'node:stream';
import pino from 'pino';
import { accessLogMiddleware } from './access-log.middleware';

/** A logger writing JSON lines into an array, as the real one writes them to stdout. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

describe('accessLogMiddleware', () => {
  const token = 'eyJmIjoiOWY4ZTdkNmMiLCJwIjoiZG93bmxvYWQiLCJlIjoxNzAwMDAwMDAwfQ.Zm9vYmFyLXNpZ25hdHVyZS1ieXRlcw';

  it('never writes the token of a signed upload or download URL, and still says which route it was', async () => {
    const { logger, lines } = capturingLogger();
    const app = express();
    app.use(accessLogMiddleware(logger));
    app.put('/v1/uploads/:token', (_req, res) => void res.status(204).end());
    app.get('/v1/downloads/:token', (_req, res) => void res.status(403).json({ code: 'INVALID_REQUEST', message: 'expired' }));
    app.get('/v1/acme/conversations', (_req, res) => void res.status(200).json({ items: [] }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await fetch(`${base}/v1/uploads/${token}`, { method: 'PUT', body: 'bytes' });
      await fetch(`${base}/v1/downloads/${token}`);
      await fetch(`${base}/v1/acme/conversations?limit=5`);
      // The line is written when the response finished, just after the client got it.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((entry) => [entry['method'], entry['path'], entry['route'], entry['status']])).toEqual([
      ['PUT', '/v1/uploads/[redacted]', '/v1/uploads/:token', 204],
      ['GET', '/v1/downloads/[redacted]', '/v1/downloads/:token', 403],
      ['GET', '/v1/acme/conversations', '/v1/acme/conversations', 200],
    ]);
    const everything = lines.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.split('.')[1]);
  });
});
