import { RedisWebhookEndpointListVersions } from '@cmsg/dal';
import { type RedisClient, closeRedisClient, createLogger, createRedisClient } from '@cmsg/platform';
import type { StackDescription } from './local-stack';

const connections = new Map<string, Promise<RedisClient>>();

/**
 * The webhook endpoint list versions of a stack, in its Redis: what a test (or a benchmark) that
 * writes webhook endpoints straight into the stack's database must bump, as the services do, so
 * that their cached endpoint lists follow (docs/webhooks.md, Endpoint list cache). One connection
 * per Redis in this process, which never keeps the process alive on its own.
 */
export async function stackEndpointListVersions(stack: Pick<StackDescription, 'env'>): Promise<RedisWebhookEndpointListVersions> {
  const url = stack.env['REDIS_URL'];
  if (!url) throw new Error('the stack has no REDIS_URL');
  let connection = connections.get(url);
  if (!connection) {
    const client = createRedisClient(url, createLogger('test', 'silent'));
    connection = client.connect().then(() => {
      client.unref();
      return client;
    });
    connections.set(url, connection);
    connection.catch(() => connections.delete(url));
  }
  return new RedisWebhookEndpointListVersions(await connection);
}

/** Closes this process's connections to the stacks' Redis (after a test file). */
export async function closeStackRedisConnections(): Promise<void> {
  const open = [...connections.values()];
  connections.clear();
  await Promise.all(
    open.map(async (connection) => {
      const client = await connection.catch(() => null);
      if (client) await closeRedisClient(client);
    }),
  );
}
