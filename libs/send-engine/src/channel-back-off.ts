import type { RedisClient } from '@cmsg/platform/redis';
import { randomUUID } from 'node:crypto';
import { SendEngineKeys, type SendEngineKeyOptions } from './keys';
import { LuaScript, REDIS_NOW_MS_LUA, integerReply } from './lua-script';

export interface ChannelBackOffOptions extends SendEngineKeyOptions {
  /** Throttles further apart than this start again from 1 s. */
  levelTtlMs?: number;
  baseMs?: number;
  maxMs?: number;
  /** The share of the rate the provider took in a throttle burst that the channel keeps to afterwards. */
  learnedShare?: number;
  /** How long a learned rate is kept (ChannelRateBudget raises it again well before). */
  learnedTtlMs?: number;
  /**
   * An accepted call this long after a back-off ended resets the level: a call granted before the
   * back-off and answered within this after it ends does not.
   */
  settleMs?: number;
}

/**
 * KEYS: back-off until, back-off level, accepted log, learned rate, throttle burst.
 * ARGV: random in [0, 1), levelTtlMs, baseMs, maxMs, learnedShare, learnedTtlMs, settleMs.
 * Returns {backOffMs, learnedRate (0 = none learned)}.
 *
 * A throttle answered while the channel already backs off is the same burst (calls granted before
 * the back-off began, often from other replicas): it neither raises the level nor extends the
 * back-off, otherwise one burst of 50 in-flight calls would jump straight to the cap. The burst
 * tells what the provider takes: the calls it accepted in the second before refusing one (the
 * most any throttle of the burst saw), and the channel keeps to `learnedShare` of that afterwards,
 * so the budget does not grant the configured rate again the moment the back-off ends.
 */
const RECORD_THROTTLED_LUA = `${REDIS_NOW_MS_LUA}
local untilKey, levelKey, acceptedKey, learnedKey, burstKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local random = tonumber(ARGV[1])
local levelTtlMs = tonumber(ARGV[2])
local baseMs = tonumber(ARGV[3])
local maxMs = tonumber(ARGV[4])
local learnedShare = tonumber(ARGV[5])
local learnedTtlMs = tonumber(ARGV[6])
local settleMs = tonumber(ARGV[7])

-- The rate this throttle teaches, kept when it is the burst's best so far; 0 when it teaches nothing.
local function learn(burstBest, burstTtlMs)
  local accepted = redis.call('ZCOUNT', acceptedKey, '(' .. (now - 1000), '+inf')
  local rate = math.floor(accepted * learnedShare)
  if rate < 1 or rate <= burstBest then return 0 end
  redis.call('SET', burstKey, rate, 'PX', burstTtlMs)
  redis.call('HSET', learnedKey, 'rate', rate, 'at', now)
  redis.call('PEXPIRE', learnedKey, learnedTtlMs)
  return rate
end

local backOffUntil = tonumber(redis.call('GET', untilKey) or '0')
if backOffUntil > now then
  redis.call('PEXPIRE', levelKey, levelTtlMs)
  return {backOffUntil - now, learn(tonumber(redis.call('GET', burstKey) or '0'), backOffUntil - now)}
end
local level = redis.call('INCR', levelKey)
redis.call('PEXPIRE', levelKey, levelTtlMs)
local backOffMs = math.floor(math.min(baseMs * 2 ^ (level - 1) * (1 + 0.5 * random), maxMs))
-- Kept past its end for recordAccepted, which tells the calls granted before it from those after.
redis.call('SET', untilKey, now + backOffMs, 'PX', backOffMs + settleMs)
redis.call('DEL', burstKey)
return {backOffMs, learn(0, backOffMs)}
`;

/**
 * KEYS: accepted log, back-off until, back-off level. ARGV: nonce, settleMs.
 * Records one accepted call, keeping the last second. An accepted call more than `settleMs` after
 * the last back-off ended (so not one granted before it) shows the provider takes the channel's
 * rate again: the next throttle starts from the base. Only throttles with no accepted call between
 * them (the provider refusing everything) raise the level.
 */
const RECORD_ACCEPTED_LUA = `${REDIS_NOW_MS_LUA}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2000)
local backOffUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if backOffUntil + tonumber(ARGV[2]) < now then redis.call('DEL', KEYS[3]) end
return 1
`;

/** The longest back-off after 130429 (the send engine's pacing wait covers it). */
export const DEFAULT_BACK_OFF_MAX_MS = 32_000;

const recordAcceptedScript = new LuaScript(RECORD_ACCEPTED_LUA);
const recordThrottledScript = new LuaScript(RECORD_THROTTLED_LUA);

export interface ThrottleRecorded {
  /** How long the channel now backs off (ms). */
  backOffMs: number;
  /** The rate the channel now keeps to, when this throttle taught one (ChannelRateBudget raises it again over time). */
  learnedPerSecond: number | null;
}

/**
 * The provider's answers to a channel's calls. Its 130429 (throughput exceeded) stops the channel on
 * every replica for 1 s, then 2 s, 4 s ... while the provider accepts nothing between throttles
 * (with up to 50 % jitter, capped at 32 s); ChannelRateBudget
 * grants nothing until it ends, and then no more than the rate the provider was found to take
 * (docs/broadcasts.md, "The send engine").
 */
export class ChannelBackOff {
  private readonly keys: SendEngineKeys;
  private readonly args: Array<string | number>;
  private readonly settleMs: number;

  constructor(
    private readonly redis: RedisClient,
    { keyPrefix, levelTtlMs = 60_000, baseMs = 1000, maxMs = DEFAULT_BACK_OFF_MAX_MS, learnedShare = 0.95, learnedTtlMs = 3_600_000, settleMs = 1000 }: ChannelBackOffOptions = {},
  ) {
    this.keys = new SendEngineKeys(keyPrefix);
    this.args = [levelTtlMs, baseMs, maxMs, learnedShare, learnedTtlMs, settleMs];
    this.settleMs = settleMs;
  }

  /** Records that the provider accepted a call of the channel (what a later throttle learns from). */
  async recordAccepted(channelKey: string): Promise<void> {
    const keys = [this.keys.acceptedLog(channelKey), this.keys.backOffUntil(channelKey), this.keys.backOffLevel(channelKey)];
    await recordAcceptedScript.run(this.redis, keys, [randomUUID(), this.settleMs]);
  }

  /** Records a 130429 answer to one call. */
  async recordThrottled(channelKey: string, random: number = Math.random()): Promise<ThrottleRecorded> {
    const reply = await recordThrottledScript.run(
      this.redis,
      [
        this.keys.backOffUntil(channelKey),
        this.keys.backOffLevel(channelKey),
        this.keys.acceptedLog(channelKey),
        this.keys.learnedRate(channelKey),
        this.keys.throttleBurst(channelKey),
      ],
      [random, ...this.args],
    );
    const [backOffMs, learned] = integerReply(reply, 2);
    return { backOffMs, learnedPerSecond: learned > 0 ? learned : null };
  }
}
