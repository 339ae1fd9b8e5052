import { z } from 'zod';
import { API_TOKEN_SCOPES, isApiTokenScope } from '@cmsg/api-schemas';
import { isWellFormedApiToken } from '@cmsg/seed';

export type AdminCommand =
  | { kind: 'help' }
  | { kind: 'seed'; file: string }
  | { kind: 'token-create'; business: string; uuid?: string; scopes?: string[] }
  | { kind: 'token-revoke'; reference: { uuid: string } | { token: string } }
  | { kind: 'token-list'; business: string };

export const ADMIN_USAGE = `usage: npm run admin -- <command>

  seed <file.json>                                   load a seed file (CONTRACT 8), idempotently
  token create --business <slug> [--uuid <uuid>] [--scopes <scope,...>]
                                                     issue a token; the plaintext is printed once
  token revoke (--uuid <token uuid> | --token <token>)
  token list --business <slug>                       uuids, scopes, creation and revocation times

Scopes (CONTRACT 9.3; a token gets all three unless --scopes names fewer):
  ${API_TOKEN_SCOPES.join(', ')}
  help

Configuration: MONGODB_URI (default mongodb://127.0.0.1:27117/cmsg; database cmsg when the URI names none).
Exit codes: 0 done, 1 failed, 2 usage error.`;

/** A mistake in the command line (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const uuid = z.uuid();

export function parseAdminArgs(argv: readonly string[]): AdminCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '-h':
    case '--help':
      return { kind: 'help' };
    case 'seed': {
      const { positionals } = parseFlags(rest, []);
      if (positionals.length !== 1) throw new UsageError('seed takes exactly one file: seed <file.json>');
      return { kind: 'seed', file: positionals[0] };
    }
    case 'token':
      return parseTokenCommand(rest);
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

function parseTokenCommand(argv: readonly string[]): AdminCommand {
  const [subcommand, ...rest] = argv;
  switch (subcommand) {
    case 'create': {
      const flags = parseFlags(rest, ['business', 'uuid', 'scopes'], { noPositionals: true }).flags;
      return {
        kind: 'token-create',
        business: required(flags, 'business'),
        ...(flags.uuid !== undefined && { uuid: validUuid(flags.uuid) }),
        ...(flags.scopes !== undefined && { scopes: validScopes(flags.scopes) }),
      };
    }
    case 'revoke': {
      const { flags } = parseFlags(rest, ['uuid', 'token'], { noPositionals: true });
      if ((flags.uuid === undefined) === (flags.token === undefined)) throw new UsageError('token revoke takes one of --uuid <token uuid> or --token <token>');
      if (flags.uuid !== undefined) return { kind: 'token-revoke', reference: { uuid: validUuid(flags.uuid) } };
      if (!isWellFormedApiToken(flags.token ?? '')) throw new UsageError('--token must be cmsg_ followed by 64 lowercase hex characters');
      return { kind: 'token-revoke', reference: { token: flags.token as string } };
    }
    case 'list':
      return { kind: 'token-list', business: required(parseFlags(rest, ['business'], { noPositionals: true }).flags, 'business') };
    default:
      throw new UsageError(subcommand ? `unknown token command ${subcommand} (create, revoke, list)` : 'token needs a command: create, revoke or list');
  }
}

/** `--name value` and `--name=value`; every flag takes a value and may appear once. */
function parseFlags(argv: readonly string[], allowed: readonly string[], options: { noPositionals?: boolean } = {}) {
  const flags: Record<string, string | undefined> = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (!arg.startsWith('--')) {
      if (options.noPositionals) throw new UsageError(`unexpected argument ${arg}`);
      positionals.push(arg);
      continue;
    }
    const [name, inlineValue] = splitOnce(arg.slice(2), '=');
    if (!allowed.includes(name)) throw new UsageError(allowed.length ? `unknown option --${name} (allowed: ${allowed.map((flag) => `--${flag}`).join(', ')})` : `unknown option --${name}`);
    if (flags[name] !== undefined) throw new UsageError(`--${name} given twice`);
    const value = inlineValue ?? argv[++index];
    if (value === undefined || value === '' || (inlineValue === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { flags, positionals };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

function required(flags: Record<string, string | undefined>, name: string): string {
  const value = flags[name];
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

/** `a,b`: each a known scope, once each (spaces around the commas are fine). */
function validScopes(value: string): string[] {
  const scopes = value.split(',').map((scope) => scope.trim());
  const unknown = scopes.filter((scope) => !isApiTokenScope(scope));
  if (unknown.length > 0) {
    throw new UsageError(`--scopes: unknown scope ${unknown.map((scope) => `'${scope}'`).join(', ')} (scopes: ${API_TOKEN_SCOPES.join(', ')})`);
  }
  return [...new Set(scopes)];
}

function validUuid(value: string): string {
  if (!uuid.safeParse(value).success) throw new UsageError(`not a uuid: ${value}`);
  return value.toLowerCase();
}
