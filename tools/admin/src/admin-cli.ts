import { readFile } from 'node:fs/promises';
import {
  ApiTokenRepository,
  BusinessRepository,
  RedisWebhookEndpointListVersions,
  type WebhookEndpointListVersions,
  connectMongo,
  disconnectMongo,
  isMongoUnreachableError,
  seedStoresOverMongo,
} from '@cmsg/dal';
import { isCatalogError } from '@cmsg/errors';
import { createLogger, withTimeout } from '@cmsg/platform';
import { closeRedisClient, createRedisClient } from '@cmsg/platform/redis';
import { ApiTokenAdminError, type ApiTokenAdminStores, createApiToken, listApiTokens, parseSeedFile, revokeApiToken, SeedConflictError, seedDatabase, SeedFileError } from '@cmsg/seed';
import { ADMIN_USAGE, parseAdminArgs, UsageError, type AdminCommand } from './admin-args';
import { loadAdminConfig, redactUri } from './admin-config';
import { formatSeedSummary } from './seed-summary-format';

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** How long a seed load waits for Redis to accept its connection. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/** Runs one admin command; every failure becomes a one-paragraph message and an exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let command: AdminCommand;
  try {
    command = parseAdminArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`error: ${error.message}\n\n${ADMIN_USAGE}`);
    return EXIT.usage;
  }
  if (command.kind === 'help') {
    io.out(ADMIN_USAGE);
    return EXIT.ok;
  }
  try {
    // A seed file is checked before any connection, so a typo fails fast.
    const seedFile = command.kind === 'seed' ? await readSeedFile(command.file) : undefined;
    const { mongodbUri, redisUrl } = loadAdminConfig(env);
    await connect(mongodbUri);
    try {
      await execute(command, seedFile, redisUrl, io);
    } finally {
      await disconnectMongo();
    }
    return EXIT.ok;
  } catch (error) {
    io.err(`error: ${describeFailure(error)}`);
    return EXIT.failed;
  }
}

async function execute(command: Exclude<AdminCommand, { kind: 'help' }>, seedFile: unknown, redisUrl: string, io: AdminIo): Promise<void> {
  switch (command.kind) {
    case 'seed':
      await withEndpointListVersions(redisUrl, async (endpointListVersions) => io.out(formatSeedSummary(await seedDatabase(seedStoresOverMongo(endpointListVersions), seedFile), command.file)));
      return;
    case 'token-create': {
      const created = await createApiToken(apiTokenAdminStores(), command.business, { uuid: command.uuid, scopes: command.scopes });
      io.out(JSON.stringify({ uuid: created.uuid, token: created.token, business: created.business.slug, scopes: created.scopes, created_at: created.created_at }, null, 2));
      io.err('Store this token now: only its hash is kept, it cannot be shown again.');
      return;
    }
    case 'token-revoke':
      io.out(JSON.stringify(await revokeApiToken(apiTokenAdminStores(), command.reference), null, 2));
      return;
    case 'token-list':
      io.out(JSON.stringify({ business: command.business, tokens: await listApiTokens(apiTokenAdminStores(), command.business) }, null, 2));
      return;
  }
}

/** The collections the token commands read and write, over the connection runAdmin opened. */
function apiTokenAdminStores(): ApiTokenAdminStores {
  return { businesses: new BusinessRepository(), apiTokens: new ApiTokenRepository() };
}

async function readSeedFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AdminFailure(`cannot read seed file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AdminFailure(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeedFile(json);
}

async function connect(uri: string): Promise<void> {
  try {
    await connectMongo(uri);
  } catch (error) {
    throw new AdminFailure(`cannot reach MongoDB at ${redactUri(uri)} (${(error as Error).message}); is it up? bash tools/infra/infra.sh up`);
  }
}

/**
 * A seed load writes webhook endpoints: the services that keep endpoint lists in memory learn of
 * it through their versions in Redis (docs/webhooks.md, Endpoint list cache).
 */
async function withEndpointListVersions(redisUrl: string, load: (versions: WebhookEndpointListVersions) => Promise<void>): Promise<void> {
  const redis = createRedisClient(redisUrl, createLogger('admin', 'silent'));
  try {
    try {
      await withTimeout(redis.connect(), REDIS_CONNECT_TIMEOUT_MS, `no connection within ${REDIS_CONNECT_TIMEOUT_MS / 1000} s`);
    } catch (error) {
      throw new AdminFailure(`cannot reach Redis at ${redactUri(redisUrl)} (${(error as Error).message}); is it up? bash tools/infra/infra.sh up`);
    }
    await load(new RedisWebhookEndpointListVersions(redis));
  } finally {
    await closeRedisClient(redis);
  }
}

class AdminFailure extends Error {}

function describeFailure(error: unknown): string {
  if (error instanceof AdminFailure || error instanceof SeedFileError || error instanceof SeedConflictError || error instanceof ApiTokenAdminError) {
    return error.message;
  }
  if (isMongoUnreachableError(error)) return `lost the connection to MongoDB: ${error.message}`;
  if (isCatalogError(error)) return error.message;
  if (error instanceof Error && error.message.startsWith('Invalid configuration')) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
