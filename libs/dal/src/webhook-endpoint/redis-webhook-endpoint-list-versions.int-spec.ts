import { randomUUID } from 'node:crypto';
import { type Server, type Socket, createServer } from 'node:net';
import { isCatalogError } from '@cmsg/errors';
import { createLogger } from '@cmsg/platform';
import { type RedisClient, createRedisClient } from '@cmsg/platform/redis';
import { businessScope } from '../shared/business-scope';
import { RedisWebhookEndpointListVersions } from './redis-webhook-endpoint-list-versions';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:16379';
const logger = createLogger('test', 'silent');

/** The webhook endpoint list versions on the real Redis, as several processes share them. */
describe('RedisWebhookEndpointListVersions', () => {
  const clients: RedisClient[] = [];
  const servers: Server[] = [];
  const sockets: Socket[] = [];

  const connected = async (url = REDIS_URL): Promise<RedisClient> => {
    const client = createRedisClient(url, logger);
    clients.push(client);
    await client.connect();
    return client;
  };

  afterAll(async () => {
    // disconnect, not quit: the silent server never answers QUIT.
    await Promise.all(clients.filter((client) => client.isOpen).map((client) => client.disconnect()));
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('answers one version to every process until a bump, then a new one to all of them', async () => {
    const [writer, reader] = [new RedisWebhookEndpointListVersions(await connected()), new RedisWebhookEndpointListVersions(await connected())];
    const scope = businessScope(randomUUID());
    const first = await reader.current(scope);
    expect(await writer.current(scope)).toBe(first);
    expect(await reader.current(scope)).toBe(first);
    await writer.bump(scope);
    const second = await reader.current(scope);
    expect(second).not.toBe(first);
    await writer.bump(scope);
    expect(await reader.current(scope)).not.toBe(second);
    expect(await reader.current(businessScope(randomUUID()))).not.toBe(await reader.current(scope));
  });

  it('makes a lost version anew, never one seen before, and concurrent first readers agree on it', async () => {
    const redis = await connected();
    const readers = await Promise.all(Array.from({ length: 5 }, async () => new RedisWebhookEndpointListVersions(await connected())));
    const scope = businessScope(randomUUID());
    const seen = new Set([await readers[0]!.current(scope)]);
    for (let lost = 0; lost < 3; lost += 1) {
      await redis.del(`webhook-endpoint-list:${scope.businessId}:version`);
      const versions = new Set(await Promise.all(readers.map((reader) => reader.current(scope))));
      expect(versions.size).toBe(1);
      const [version] = versions;
      expect(seen.has(version!)).toBe(false);
      seen.add(version!);
    }
    expect(await redis.pTTL(`webhook-endpoint-list:${scope.businessId}:version`)).toBeGreaterThan(23 * 3_600_000);
  });

  it('refuses a bump with SERVICE_UNAVAILABLE while Redis is unreachable, and fails a read', async () => {
    const down = createRedisClient('redis://127.0.0.1:1', logger);
    clients.push(down);
    down.connect().catch(() => undefined);
    const versions = new RedisWebhookEndpointListVersions(down);
    const scope = businessScope(randomUUID());
    const refusal = await versions.bump(scope).catch((error: unknown) => error);
    expect(isCatalogError(refusal) && refusal.code).toBe('SERVICE_UNAVAILABLE');
    await expect(versions.current(scope)).rejects.toThrow();
  });

  it('gives up on a Redis that holds the connection without answering', async () => {
    // Answers the client's handshake (CLIENT SETINFO), then nothing: a Redis paused or overloaded.
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => socket.write('+OK\r\n'.repeat(chunk.toString().split('SETINFO').length - 1)));
    });
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const versions = new RedisWebhookEndpointListVersions(await connected(`redis://127.0.0.1:${port}`), 200);
    const started = Date.now();
    await expect(versions.current(businessScope(randomUUID()))).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(versions.bump(businessScope(randomUUID()))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
