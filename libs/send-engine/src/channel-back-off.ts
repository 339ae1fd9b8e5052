import type { RedisClient } from '@cmsg/platform';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';
import { LuaScript, REDIS_NOW_MS_LUA, integerReply } from './lua-script';

export interface ChannelBackOffOptions extends SendEngineKeyOptions {
  /** Throttles further apart than this start again from 1 s. */
  levelTtlMs?: number;
  baseMs?: number;
  maxMs?: number;
}

/**
 * KEYS: back-off until, back-off level. ARGV: random in [0, 1), levelTtlMs, baseMs, maxMs.
 * Returns {backOffMs}.
 * A throttle answered while the channel already backs off is the same burst (calls granted before
 * the back-off began, often from other replicas): it neither raises the level nor extends the
 * back-off, otherwise one burst of 50 in-flight calls would jump straight to the cap.
 */
const RECORD_THROTTLED_LUA = `${REDIS_NOW_MS_LUA}
local untilKey, levelKey = KEYS[1], KEYS[2]
local random = tonumber(ARGV[1])
local levelTtlMs = tonumber(ARGV[2])
local baseMs = tonumber(ARGV[3])
local maxMs = tonumber(ARGV[4])

local backOffUntil = tonumber(redis.call('GET', untilKey) or '0')
if backOffUntil > now then
  redis.call('PEXPIRE', levelKey, levelTtlMs)
  return {backOffUntil - now}
end
local level = redis.call('INCR', levelKey)
redis.call('PEXPIRE', levelKey, levelTtlMs)
local backOffMs = math.floor(math.min(baseMs * 2 ^ (level - 1) * (1 + 0.5 * random), maxMs))
redis.call('SET', untilKey, now + backOffMs, 'PX', backOffMs)
return {backOffMs}
`;

const recordThrottledScript = new LuaScript(RECORD_THROTTLED_LUA);

/**
 * The provider's 130429 (throughput exceeded) stops the channel on every replica for 1 s, 2 s, 4 s
 * ... (with up to 50 % jitter, capped at 32 s); ChannelRateBudget grants nothing until it ends.
 */
export class ChannelBackOff {
  private readonly keys: SendEngineKeys;
  private readonly levelTtlMs: number;
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(
    private readonly redis: RedisClient,
    { keyPrefix, levelTtlMs = 60_000, baseMs = 1000, maxMs = 32_000 }: ChannelBackOffOptions = {},
  ) {
    this.keys = new SendEngineKeys(keyPrefix);
    this.levelTtlMs = levelTtlMs;
    this.baseMs = baseMs;
    this.maxMs = maxMs;
  }

  /** Records a throttle answer; returns how long the channel now backs off (ms). */
  async recordThrottled(channelKey: string, random: number = Math.random()): Promise<number> {
    const reply = await recordThrottledScript.run(
      this.redis,
      [this.keys.backOffUntil(channelKey), this.keys.backOffLevel(channelKey)],
      [random, this.levelTtlMs, this.baseMs, this.maxMs],
    );
    const [backOffMs] = integerReply(reply, 1);
    return backOffMs;
  }
}
