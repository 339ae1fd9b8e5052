import { configVars, loadConfig } from '@cmsg/platform';

export const DEFAULT_DATABASE = 'cmsg';

export function loadAdminConfig(env: NodeJS.ProcessEnv = process.env) {
  // REDIS_URL: a seed load bumps the webhook endpoint list versions the services cache under (docs/webhooks.md).
  const config = loadConfig({ MONGODB_URI: configVars.mongodbUri, REDIS_URL: configVars.redisUrl }, env);
  return { mongodbUri: withDefaultDatabase(config.MONGODB_URI, DEFAULT_DATABASE), redisUrl: config.REDIS_URL };
}

/**
 * `bash tools/infra/infra.sh env` prints a URI without a database; the services and this tool
 * then share `cmsg` rather than the driver's `test`.
 */
export function withDefaultDatabase(uri: string, database: string): string {
  return splitUri(uri)?.database ? uri : withDatabase(uri, database);
}

/** The same URI naming another database (hosts, credentials and options kept). */
export function withDatabase(uri: string, database: string): string {
  const parts = splitUri(uri);
  return parts ? `${parts.authority}/${database}${parts.query}` : uri;
}

/** mongodb[+srv]://[user:pass@]hosts[/database][?options] */
function splitUri(uri: string): { authority: string; database: string; query: string } | null {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/([^?]*))?(\?.*)?$/.exec(uri);
  return match ? { authority: match[1], database: match[2] ?? '', query: match[3] ?? '' } : null;
}

/** For messages: the URI without its password. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-z+]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}
