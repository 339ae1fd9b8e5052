import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateApiToken } from '@cmsg/seed';
import { type ApiClient, type TestBusiness, WORKSPACE_ROOT, contactSeed, createTestBusiness, integrationStack, lastStaleReadAfter, seedStackDatabase, storedCollection } from '@cmsg/testing';

const ADMIN_CLI = path.join(WORKSPACE_ROOT, 'dist/tools/admin/main.js');

/** `npm run admin -- <argv>` against the stack's database. */
async function admin(...argv: string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [ADMIN_CLI, ...argv], { env: { ...process.env, MONGODB_URI: integrationStack().env['MONGODB_URI'] } });
}

describe('token scopes (CONTRACT 9.3)', () => {
  let business: TestBusiness;
  let conversationUuid: string;
  const tokens = { read: generateApiToken(), write: generateApiToken(), webhooks: generateApiToken(), legacy: generateApiToken() };
  const legacyUuid = randomUUID();
  const client = (token: string): ApiClient => business.api.withToken(token);

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      conversationUuid = contactSeed(seed).conversation!.uuid!;
      seed.api_tokens!.push(
        { uuid: randomUUID(), token: tokens.read, scopes: ['conversations:read'] },
        { uuid: randomUUID(), token: tokens.write, scopes: ['conversations:write'] },
        { uuid: randomUUID(), token: tokens.webhooks, scopes: ['webhooks:manage'] },
        { uuid: legacyUuid, token: tokens.legacy },
      );
    });
    // A token stored before scopes existed has no scopes field at all.
    await storedCollection('api_tokens').updateOne({ _id: legacyUuid }, { $unset: { scopes: '' } });
  });

  it('stores the scopes the seed file names, and all three by default', async () => {
    const stored = await storedCollection('api_tokens')
      .find({ business_id: business.businessId }, { projection: { scopes: 1 } })
      .toArray();
    expect(stored.map((token) => token['scopes'] ?? 'absent').sort()).toEqual(
      [['conversations:read', 'conversations:write', 'webhooks:manage'], ['conversations:read'], ['conversations:write'], ['webhooks:manage'], 'absent'].sort(),
    );
  });

  it('lets a read-only token read: GETs and POST /conversation/status', async () => {
    const reader = client(tokens.read);
    for (const path of ['/conversations', '/contacts', '/tester/contacts', '/channels']) expect([path, (await reader.get(path)).status]).toEqual([path, 200]);
    const status = await reader.post('/conversation/status', { conversation: { uuid: conversationUuid } });
    expect(status.status).toBe(200);
    expect(status.body.conversation.uuid).toBe(conversationUuid);
  });

  it('refuses a read-only token a write: 403 TOKEN_SCOPE_INSUFFICIENT naming conversations:write, and nothing changes', async () => {
    const reader = client(tokens.read);
    const note = await reader.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'must not be stored' });
    expect(note.status).toBe(403);
    expect(note.body).toEqual({ code: 'TOKEN_SCOPE_INSUFFICIENT', message: 'The API token lacks the scope conversations:write, which POST /{slug}/conversation/notes needs.' });
    expect(await storedCollection('timeline_events').countDocuments({ conversation_id: conversationUuid, body: 'must not be stored' })).toBe(0);
    const pending = await reader.post('/conversation/pending', { conversation: { uuid: conversationUuid } });
    expect([pending.status, pending.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
    expect(pending.body.message).toContain('conversations:write');
  });

  it('refuses a write-only token every GET and the status snapshot, naming conversations:read, and lets it write', async () => {
    const writer = client(tokens.write);
    for (const path of ['/conversations', '/contacts', '/channels', `/scheduled-messages/${randomUUID()}`]) {
      const response = await writer.get(path);
      expect([path, response.status, response.body.code]).toEqual([path, 403, 'TOKEN_SCOPE_INSUFFICIENT']);
      expect(response.body.message).toContain('conversations:read');
    }
    const status = await writer.post('/conversation/status', { conversation: { uuid: conversationUuid } });
    expect([status.status, status.body.code]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT']);
    expect((await writer.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'written' })).status).toBe(201);
  });

  it('refuses a webhooks-only token the conversation endpoints', async () => {
    const webhooks = client(tokens.webhooks);
    const read = await webhooks.get('/conversations');
    expect([read.status, read.body.code, read.body.message]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT', expect.stringContaining('conversations:read')]);
    const write = await webhooks.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'n' });
    expect([write.status, write.body.code, write.body.message]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT', expect.stringContaining('conversations:write')]);
  });

  it('gives a token stored without scopes all three', async () => {
    const legacy = client(tokens.legacy);
    expect((await legacy.get('/conversations')).status).toBe(200);
    expect((await legacy.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'legacy' })).status).toBe(201);
  });

  // The slug is checked before the scope and the scope before the body: apps/gateway/src/app.token-scopes.spec.ts.

  it('applies a change of scopes from a new seed load within the token cache time', async () => {
    const widened = generateApiToken();
    const uuid = randomUUID();
    business.seed.api_tokens!.push({ uuid, token: widened, scopes: ['conversations:read'] });
    await seedStackDatabase({ businesses: [business.seed] });
    const widenedClient = client(widened);
    expect((await widenedClient.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'n' })).status).toBe(403);
    business.seed.api_tokens!.find((token) => token.uuid === uuid)!.scopes = ['conversations:read', 'conversations:write'];
    await seedStackDatabase({ businesses: [business.seed] });
    const changedAt = Date.now();
    const write = async (): Promise<number> => (await widenedClient.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'n' })).status;
    // The request, not its answer, is what must come within 5 s of the change (CONTRACT 1).
    expect(await lastStaleReadAfter(changedAt, write, (status) => status === 201)).toBeLessThan(5000);
  });

  describe('npm run admin -- token create --scopes', () => {
    beforeAll(() => {
      execFileSync(process.execPath, [path.join(WORKSPACE_ROOT, 'tools/build/build-node-app.mjs'), 'tools/admin'], { cwd: WORKSPACE_ROOT, stdio: 'inherit' });
    }, 60_000);

    it('creates a token whose scopes the gateway enforces, and lists them', async () => {
      const created = await admin('token', 'create', '--business', business.slug, '--scopes', 'conversations:read');
      const token = JSON.parse(created.stdout) as { uuid: string; token: string; scopes: string[] };
      expect(token.scopes).toEqual(['conversations:read']);
      const reader = client(token.token);
      expect((await reader.get('/conversations')).status).toBe(200);
      const note = await reader.post('/conversation/notes', { conversation: { uuid: conversationUuid }, note: 'n' });
      expect([note.status, note.body.code, note.body.message]).toEqual([403, 'TOKEN_SCOPE_INSUFFICIENT', expect.stringContaining('conversations:write')]);

      const listed = JSON.parse((await admin('token', 'list', '--business', business.slug)).stdout) as { tokens: { uuid: string; scopes: string[] }[] };
      expect(listed.tokens.find((entry) => entry.uuid === token.uuid)?.scopes).toEqual(['conversations:read']);
      expect(listed.tokens.find((entry) => entry.uuid === legacyUuid)?.scopes).toEqual(['conversations:read', 'conversations:write', 'webhooks:manage']);
    });

    it('refuses an unknown scope with a usage error and creates nothing', async () => {
      const before = await storedCollection('api_tokens').countDocuments({ business_id: business.businessId });
      const failure = await admin('token', 'create', '--business', business.slug, '--scopes', 'conversations:read,contacts:write').catch((error: { code: number; stderr: string }) => error);
      expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining("--scopes: unknown scope 'contacts:write' (scopes: conversations:read, conversations:write, webhooks:manage)") });
      expect(await storedCollection('api_tokens').countDocuments({ business_id: business.businessId })).toBe(before);
    });
  });
});
