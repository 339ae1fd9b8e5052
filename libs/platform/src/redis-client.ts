import type { Logger } from './logger';
import { createClient } from '@redis/client';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * Commands fail at once while Redis is down instead of queueing, so the rate limiter falls back
 * to its in-memory insurance and idempotent requests get a quick 503 rather than hanging.
 */
export function createRedisClient(url: string, logger: Logger): RedisClient {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  let outageReported = false;
  client.on('ready', () => {
    outageReported = false;
    logger.info('redis ready');
  });
  client.on('error', (error: unknown) => {
    // Every reconnection attempt repeats the error: report the outage once, not every retry.
    if (!outageReported) logger.warn({ err: error }, 'redis unavailable; reconnecting');
    outageReported = true;
  });
  return client;
}

/** Connects in the background: the gateway serves (on the insurance limiter) while Redis comes up. */
export function connectRedisClient(client: RedisClient, logger: Logger): void {
  client.connect().catch((error: unknown) => logger.error({ err: error }, 'redis connect failed'));
}

/**
 * Quits, or disconnects a client that is not ready. A server that goes away during the QUIT ends the
 * socket under it: the client is then disconnected, so that it does not keep reconnecting.
 */
export async function closeRedisClient(client: RedisClient): Promise<void> {
  if (client.isReady) await client.quit().catch(() => undefined);
  if (client.isOpen) await client.disconnect();
}
