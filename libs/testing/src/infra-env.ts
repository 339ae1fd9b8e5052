import { execFileSync } from 'node:child_process';
import path from 'node:path';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

export interface InfraEnv {
  MONGODB_URI: string;
  KAFKA_BROKERS: string;
  REDIS_URL: string;
}

/**
 * Starts (or reuses) the local servers through the project's own script and returns their addresses.
 * Tests and benchmarks use the memory backend of the local MongoDB unless told otherwise.
 */
export function ensureInfrastructure(): InfraEnv {
  const script = path.join(WORKSPACE_ROOT, 'tools/infra/infra.sh');
  const infraEnv = { ...process.env, CMSG_MONGO_BACKEND: process.env['CMSG_MONGO_BACKEND'] ?? 'memory' };
  execFileSync('bash', [script, 'up'], { stdio: ['ignore', 'ignore', 'inherit'], env: infraEnv });
  const exports = execFileSync('bash', [script, 'env'], { encoding: 'utf8', env: infraEnv });
  const env: Record<string, string> = {};
  for (const match of exports.matchAll(/export (\w+)=(?:'([^']*)'|"([^"]*)"|(\S+))/g)) {
    env[match[1]!] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  for (const name of ['MONGODB_URI', 'KAFKA_BROKERS', 'REDIS_URL']) {
    if (!env[name]) throw new Error(`infra.sh env did not print ${name}`);
  }
  return env as unknown as InfraEnv;
}

/** The same server, another database: each test run gets its own. */
export function withDatabase(mongoUri: string, database: string): string {
  const url = new URL(mongoUri);
  url.pathname = `/${database}`;
  return url.toString();
}
