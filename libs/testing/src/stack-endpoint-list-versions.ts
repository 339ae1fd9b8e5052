import { RedisWebhookEndpointListVersions } from '@cmsg/dal';
import { createLogger } from '@cmsg/platform';
import { type RedisClient, closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import type { StackDescription } from './local-stack';

const connections = new Map<string, Promise<RedisClient>>();

/**
 * How long a bump from a test process waits for Redis. The services' 500 ms (VERSION_ANSWER_TIMEOUT_MS)
 * holds for a service's own event loop; a jest worker on a loaded machine ran its timers later than
 * that in a fresh-clone run and failed a spec's setup with SERVICE_UNAVAILABLE before Redis could answer.
 */
const TEST_PROCESS_ANSWER_TIMEOUT_MS = 10_000;

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
  return new RedisWebhookEndpointListVersions(await connection, TEST_PROCESS_ANSWER_TIMEOUT_MS);
}

/** Closes this process's connections to the stacks' Redis (after a test file, or before a stack stops a Redis of its own). */
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
