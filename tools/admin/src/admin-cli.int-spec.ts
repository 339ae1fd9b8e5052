import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { dropDatabaseAt } from '@cmsg/testing-database';
import { EXIT, runAdmin } from './admin-cli';
import { withDatabase } from './admin-config';

const dbName = `cmsg_admintest_${randomBytes(4).toString('hex')}`;
const env = { MONGODB_URI: withDatabase(process.env['MONGODB_URI'] ?? 'mongodb://127.0.0.1:27117/', dbName) };
const DEMO = join(__dirname, '../../seed/demo.json');

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('admin CLI on MongoDB', () => {
  // The database is this file's own: dropped, so the memory-backed server's heap stays flat.
  afterAll(async () => {
    await dropDatabaseAt(env.MONGODB_URI);
  });

  it('loads the demo seed, and again without duplicating it (relative times move)', async () => {
    const first = await admin('seed', DEMO);
    expect(first).toMatchObject({ code: EXIT.ok, err: '' });
    expect(first.out).toMatch(/^business demo \([0-9a-f-]{36}\)\n {2}businesses +1 defined +1 inserted +0 updated/);
    expect(first.out).toMatch(/contacts +6 defined +6 inserted/);
    const second = await admin('seed', DEMO);
    for (const [collection, total] of [['contacts', 6], ['conversations', 6], ['messages', 10], ['templates', 3]] as const) {
      expect(second.out).toMatch(new RegExp(`${collection} +${total} defined +0 inserted`));
    }
    expect(second.out).toMatch(/templates +3 defined +0 inserted +0 updated/);
  });

  it('reports "no changes" for a file with absolute times', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cmsg-admin-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ businesses: [{ slug: 'fixed', name: 'Fixed', api_tokens: [{ uuid: randomUUID(), token: `cmsg_${randomBytes(32).toString('hex')}` }] }] }));
    expect((await admin('seed', file)).code).toBe(EXIT.ok);
    expect((await admin('seed', file)).out).toMatch(/seeded 1 business from .+ \(no changes\)$/);
  });

  it('creates, lists and revokes tokens', async () => {
    const uuid = randomUUID();
    const created = await admin('token', 'create', '--business', 'DEMO', '--uuid', uuid);
    expect(created.code).toBe(EXIT.ok);
    expect(created.err).toContain('cannot be shown again');
    const token = JSON.parse(created.out) as { uuid: string; token: string; business: string };
    expect(token).toMatchObject({ uuid, business: 'demo', token: expect.stringMatching(/^cmsg_[0-9a-f]{64}$/), scopes: ['conversations:read', 'conversations:write', 'webhooks:manage'] });
    const readerUuid = randomUUID();
    const reader = await admin('token', 'create', '--business', 'demo', '--uuid', readerUuid, '--scopes', 'conversations:read');
    expect(JSON.parse(reader.out)).toMatchObject({ uuid: readerUuid, scopes: ['conversations:read'] });

    expect(await admin('token', 'create', '--business', 'demo', '--uuid', uuid)).toMatchObject({ code: EXIT.failed, err: `error: a token with uuid ${uuid} already exists` });

    const listed = await admin('token', 'list', '--business', 'demo');
    const listing = JSON.parse(listed.out) as { tokens: Record<string, unknown>[] };
    expect(listing.tokens.map((entry) => [entry['uuid'], entry['revoked'], entry['scopes']])).toEqual(
      expect.arrayContaining([
        ['2943ff67-0df3-4bb0-b659-9920e742b3b5', false, ['conversations:read', 'conversations:write', 'webhooks:manage']],
        [uuid, false, ['conversations:read', 'conversations:write', 'webhooks:manage']],
        [readerUuid, false, ['conversations:read']],
      ]),
    );
    expect(Object.keys(listing.tokens[0]).sort()).toEqual(['created_at', 'revoked', 'revoked_at', 'scopes', 'uuid']);

    const revoked = await admin('token', 'revoke', '--token', token.token);
    expect(JSON.parse(revoked.out)).toMatchObject({ uuid, already_revoked: false });
    const again = await admin('token', 'revoke', '--uuid', uuid);
    expect(JSON.parse(again.out)).toMatchObject({ uuid, already_revoked: true, revoked_at: JSON.parse(revoked.out).revoked_at });
  });

  it('fails clearly for unknown businesses and tokens', async () => {
    expect(await admin('token', 'list', '--business', 'nobody')).toMatchObject({ code: EXIT.failed, err: 'error: no business with slug nobody' });
    expect(await admin('token', 'create', '--business', 'nobody')).toMatchObject({ code: EXIT.failed, err: 'error: no business with slug nobody' });
    expect(await admin('token', 'revoke', '--token', `cmsg_${'0'.repeat(64)}`)).toMatchObject({ code: EXIT.failed, err: 'error: no such token' });
    expect(await admin('token', 'create', '--business', 'demo', '--scopes', 'conversations:admin')).toMatchObject({
      code: EXIT.usage,
      err: expect.stringMatching(/^error: --scopes: unknown scope 'conversations:admin' \(scopes: conversations:read, conversations:write, webhooks:manage\)/),
    });
  });
});
