import type { RedisClient } from '@cmsg/platform/redis';
import { createHash } from 'node:crypto';

/**
 * Redis's own clock in milliseconds, read inside every script so replicas whose clocks disagree
 * still agree on windows, back-offs and pair intervals.
 */
export const REDIS_NOW_MS_LUA = `
local redisTime = redis.call('TIME')
local now = tonumber(redisTime[1]) * 1000 + math.floor(tonumber(redisTime[2]) / 1000)
`;

/**
 * A Lua script run by EVALSHA, falling back to EVAL once when Redis has not cached it yet (first
 * call, restart, SCRIPT FLUSH); defineScript would need the client built with it, and the
 * RedisClient is shared with the rest of the app.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: RedisClient, keys: string[], args: Array<string | number>): Promise<unknown> {
    const options = { keys, arguments: args.map(String) };
    try {
      return await redis.evalSha(this.sha, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, options);
    }
  }
}

/** Scripts answer integer arrays; anything else means the script and its caller disagree. */
export function integerReply(reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length || reply.some((value) => typeof value !== 'number')) {
    throw new Error(`send engine: unexpected script reply ${JSON.stringify(reply)}`);
  }
  return reply as number[];
}
