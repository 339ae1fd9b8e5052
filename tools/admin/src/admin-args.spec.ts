import { parseAdminArgs, UsageError } from './admin-args';

const UUID = '3f1c2a4e-5b6d-4c7e-8f90-a1b2c3d4e5f6';
const TOKEN = `cmsg_${'0a'.repeat(32)}`;

describe('parseAdminArgs', () => {
  it.each([
    [[], { kind: 'help' }],
    [['--help'], { kind: 'help' }],
    [['seed', 'tools/seed/demo.json'], { kind: 'seed', file: 'tools/seed/demo.json' }],
    [['token', 'create', '--business', 'demo'], { kind: 'token-create', business: 'demo' }],
    [['token', 'create', '--business=demo', '--uuid', UUID.toUpperCase()], { kind: 'token-create', business: 'demo', uuid: UUID }],
    [['token', 'create', '--business', 'demo', '--scopes', 'conversations:read'], { kind: 'token-create', business: 'demo', scopes: ['conversations:read'] }],
    [
      ['token', 'create', '--business', 'demo', '--scopes=webhooks:manage, conversations:read,webhooks:manage'],
      { kind: 'token-create', business: 'demo', scopes: ['webhooks:manage', 'conversations:read'] },
    ],
    [['token', 'revoke', '--uuid', UUID], { kind: 'token-revoke', reference: { uuid: UUID } }],
    [['token', 'revoke', `--token=${TOKEN}`], { kind: 'token-revoke', reference: { token: TOKEN } }],
    [['token', 'list', '--business', 'Demo'], { kind: 'token-list', business: 'Demo' }],
  ])('parses %j', (argv, expected) => {
    expect(parseAdminArgs(argv)).toEqual(expected);
  });

  it.each([
    [['launch'], 'unknown command launch'],
    [['seed'], 'seed takes exactly one file'],
    [['seed', 'a.json', 'b.json'], 'seed takes exactly one file'],
    [['seed', 'a.json', '--force'], 'unknown option --force'],
    [['token'], 'token needs a command'],
    [['token', 'rotate'], 'unknown token command rotate'],
    [['token', 'create'], '--business is required'],
    [['token', 'create', '--business'], '--business needs a value'],
    [['token', 'create', '--business', '--uuid', UUID], '--business needs a value'],
    [['token', 'create', '--business', 'a', '--business', 'b'], '--business given twice'],
    [['token', 'create', '--business', 'a', '--uuid', 'nope'], 'not a uuid: nope'],
    [['token', 'create', '--business', 'a', 'extra'], 'unexpected argument extra'],
    [['token', 'create', '--slug', 'a'], 'unknown option --slug (allowed: --business, --uuid, --scopes)'],
    [['token', 'create', '--business', 'a', '--scopes', 'conversations:read,contacts:read'], "--scopes: unknown scope 'contacts:read' (scopes: conversations:read, conversations:write, webhooks:manage)"],
    [['token', 'create', '--business', 'a', '--scopes', 'conversations:read,'], "--scopes: unknown scope ''"],
    [['token', 'create', '--business', 'a', '--scopes'], '--scopes needs a value'],
    [['token', 'revoke'], 'one of --uuid'],
    [['token', 'revoke', '--uuid', UUID, '--token', TOKEN], 'one of --uuid'],
    [['token', 'revoke', '--token', 'cmsg_123'], '--token must be cmsg_'],
    [['token', 'list'], '--business is required'],
  ])('rejects %j', (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });
});
