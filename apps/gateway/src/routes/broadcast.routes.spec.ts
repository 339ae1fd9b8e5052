import { CatalogError } from '@cmsg/errors';
import type { BroadcastRecipient } from '@cmsg/proto';
import { KNOWN_BROADCAST_UUID, runningBroadcast } from '../testing/fake-broadcasts-service';
import { TEST_BUSINESS } from '../testing/fake-conversations-service';
import { type GatewayHarness, startGatewayHarness } from '../testing/gateway-harness';

const caller = { business_id: TEST_BUSINESS.business_id, token_uuid: TEST_BUSINESS.token_uuid };
const filter = { and: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }, { or: [{ field: 'tag', op: 'exists', value: true }] }] };
const validBody = {
  name: 'Gold plan renewal',
  channel: 'main',
  template: { name: 'plan_renewal', language: 'es_MX' },
  variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
  audience: { filter },
};

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { code: string; message: string };
  return { status: response.status, code: body.code, message: body.message };
}

describe('broadcast routes (CONTRACT 10.4)', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });
  afterEach(() => gateway.reset());
  afterAll(() => gateway.close());

  const post = (path: string, json?: unknown) => gateway.request(`/v1/acme${path}`, { method: 'POST', json });

  describe('POST /{slug}/broadcasts', () => {
    it('sends CreateBroadcast with the filter as a Struct, the template send and every option, and answers 201 with the broadcast', async () => {
      const response = await post('/broadcasts', {
        ...validBody,
        header: { type: 'text', value: 'Hola' },
        button_parameters: [{ index: 0, sub_type: 'url', value: 'renew/{{contact.attributes.plan}}' }],
        send_at: '2026-03-01T09:00:00-06:00',
        max_per_second: 40,
        send_window: { from: '09:00', to: '20:30' },
      });
      expect(response.status).toBe(201);
      expect(gateway.broadcasts.callsOf('createBroadcast').map((call) => call.request)).toEqual([
        {
          caller,
          name: 'Gold plan renewal',
          channel: 'main',
          template: { uuid: undefined, name: 'plan_renewal', language: 'es_MX' },
          variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
          header: { type: 'text', value: 'Hola', file_uuid: undefined, transcription: undefined },
          button_parameters: [{ index: 0, sub_type: 'url', value: 'renew/{{contact.attributes.plan}}' }],
          audience: { filter, contacts: undefined, file_uuid: undefined },
          send_at: '2026-03-01T09:00:00-06:00',
          max_per_second: 40,
          send_window: { from: '09:00', to: '20:30' },
          // Without an Idempotency-Key: an operation of its own.
          operation_id: expect.stringMatching(/^broadcast:[0-9a-f-]{36}$/),
        },
      ]);
      expect(await response.json()).toEqual({
        uuid: KNOWN_BROADCAST_UUID,
        name: 'Gold plan renewal',
        channel: 'main',
        template: { uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', name: 'plan_renewal', language: 'es_MX', category: 'marketing' },
        status: 'scheduled',
        pause_reason: null,
        send_at: '2026-03-01T15:00:00.000Z',
        started_at: null,
        finished_at: null,
        counts: { total: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 },
        skipped_by_reason: {},
        failed_by_code: {},
        rate: { max_per_second: 40, current_per_second: 12.5 },
        send_window: null,
        created_at: '2026-02-28T10:00:00.000Z',
        error: null,
      });
    });

    it('names the create operation by the token and the Idempotency-Key, so a retry that reaches the service again finds its broadcast', async () => {
      const withKey = () => gateway.request('/v1/acme/broadcasts', { method: 'POST', json: validBody, headers: { 'Idempotency-Key': 'renewal-2026-03' } });
      expect((await withKey()).status).toBe(201);
      const [request] = gateway.broadcasts.callsOf('createBroadcast').map((call) => call.request as { operation_id?: string });
      expect(request?.operation_id).toMatch(/^broadcast:[0-9a-f]{64}$/);
    });

    it('sends a contact list and a file audience as their own members, optional fields absent', async () => {
      const contacts = ['11111111-2222-4333-8444-555555555555', '22222222-2222-4333-8444-555555555555'];
      expect((await post('/broadcasts', { ...validBody, template: { uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' }, audience: { contacts } })).status).toBe(201);
      expect((await post('/broadcasts', { ...validBody, audience: { file_uuid: '33333333-2222-4333-8444-555555555555' } })).status).toBe(201);
      const [list, file] = gateway.broadcasts.callsOf('createBroadcast').map((call) => call.request);
      expect(list).toMatchObject({
        template: { uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' },
        audience: { contacts: { uuids: contacts }, filter: undefined, file_uuid: undefined },
        header: undefined,
        button_parameters: [],
        send_at: undefined,
        max_per_second: undefined,
        send_window: undefined,
      });
      expect(file).toMatchObject({ audience: { file_uuid: '33333333-2222-4333-8444-555555555555', filter: undefined, contacts: undefined } });
    });

    it.each([
      ['a name of whitespace only', { name: '   ' }, 'name'],
      ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name'],
      ['no channel', { channel: undefined }, 'channel'],
      ['a template without a language', { template: { name: 'plan_renewal' } }, 'template'],
      ['a variable without a value', { variables: [{ index: 1, value: '' }] }, 'variables.0.value'],
      ['no audience', { audience: undefined }, 'audience'],
      ['two audiences', { audience: { filter, file_uuid: '33333333-2222-4333-8444-555555555555' } }, 'audience'],
      ['an empty contact list', { audience: { contacts: [] } }, 'audience.contacts'],
      // The union cannot tell which audience was meant here: its message names all three, with the bound.
      ['1,001 contacts', { audience: { contacts: new Array(1001).fill('11111111-2222-4333-8444-555555555555') } }, 'audience'],
      ['a file uuid that is not a uuid', { audience: { file_uuid: 'audience.csv' } }, 'audience.file_uuid'],
      ['a filter with a misspelt group', { audience: { filter: { any: [] } } }, 'audience'],
      ['send_at without a date', { send_at: '09:00' }, 'send_at'],
      ['max_per_second 0', { max_per_second: 0 }, 'max_per_second'],
      ['max_per_second 1001', { max_per_second: 1001 }, 'max_per_second'],
      ['max_per_second 1.5', { max_per_second: 1.5 }, 'max_per_second'],
      ['a send window ending at 24:00', { send_window: { from: '09:00', to: '24:00' } }, 'send_window.to'],
      ['a send window of 9:00', { send_window: { from: '9:00', to: '18:00' } }, 'send_window.from'],
      ['a send window without its end', { send_window: { from: '09:00' } }, 'send_window.to'],
    ])('is 400 INVALID_REQUEST naming the field for %s, before any call', async (_case, change, field) => {
      const refused = await errorOf(await post('/broadcasts', { ...validBody, ...change }));
      expect(refused).toEqual({ status: 400, code: 'INVALID_REQUEST', message: expect.stringContaining(`${field}:`) });
      expect(gateway.broadcasts.calls).toEqual([]);
    });

    it("answers the service's catalog errors with their status", async () => {
      gateway.broadcasts.overrides.createBroadcast = async () => {
        throw new CatalogError('TEMPLATE_NOT_APPROVED', 'The template plan_renewal (es_MX) is paused, not approved.');
      };
      expect(await errorOf(await post('/broadcasts', validBody))).toEqual({
        status: 422,
        code: 'TEMPLATE_NOT_APPROVED',
        message: 'The template plan_renewal (es_MX) is paused, not approved.',
      });
    });
  });

  describe('POST /{slug}/broadcasts/preview', () => {
    it('sends the same request to PreviewBroadcast and answers 200 with the preview, an unlimited messaging limit as null', async () => {
      const response = await post('/broadcasts/preview', validBody);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ total: 10, skipped_by_reason: { opted_out: 1 }, messaging_limit_remaining: null, estimated_seconds: 1 });
      expect(gateway.broadcasts.callsOf('previewBroadcast')[0]!.request).toMatchObject({ caller, name: 'Gold plan renewal', audience: { filter } });
      expect(gateway.broadcasts.callsOf('createBroadcast')).toEqual([]);
    });

    it('answers a remaining messaging limit as a number', async () => {
      gateway.broadcasts.overrides.previewBroadcast = async () => ({ total: 3, skipped_by_reason: {}, messaging_limit_remaining: 0, estimated_seconds: 0 });
      expect(await (await post('/broadcasts/preview', validBody)).json()).toEqual({ total: 3, skipped_by_reason: {}, messaging_limit_remaining: 0, estimated_seconds: 0 });
    });

    it('is a read: a conversations:read token previews but cannot create', async () => {
      const token = `cmsg_${'3'.repeat(64)}`;
      gateway.conversations.addToken(token, ['conversations:read']);
      const headers = { authorization: `Bearer ${token}` };
      expect((await gateway.request('/v1/acme/broadcasts/preview', { method: 'POST', headers, json: validBody })).status).toBe(200);
      const create = await errorOf(await gateway.request('/v1/acme/broadcasts', { method: 'POST', headers, json: validBody }));
      expect(create).toEqual({ status: 403, code: 'TOKEN_SCOPE_INSUFFICIENT', message: expect.stringContaining('conversations:write') });
    });

    it('validates as POST /broadcasts does', async () => {
      expect(await errorOf(await post('/broadcasts/preview', { ...validBody, audience: { contacts: [] } }))).toMatchObject({ status: 400, message: expect.stringContaining('audience.contacts') });
    });
  });

  describe('GET /{slug}/broadcasts', () => {
    it('asks for 50 by default and passes status, cursor and limit', async () => {
      await gateway.request('/v1/acme/broadcasts');
      await gateway.request('/v1/acme/broadcasts?status=paused&cursor=abc&limit=100');
      expect(gateway.broadcasts.callsOf('listBroadcasts').map((call) => call.request)).toEqual([
        { caller, status: undefined, cursor: undefined, limit: 50 },
        { caller, status: 'paused', cursor: 'abc', limit: 100 },
      ]);
    });

    it('answers the list envelope with each broadcast mapped', async () => {
      const paused = { ...runningBroadcast(), status: 'paused', pause_reason: 'messaging_limit', send_window: { from: '09:00', to: '18:00' } };
      gateway.broadcasts.overrides.listBroadcasts = async () => ({ items: [paused], has_more: true, next_cursor: 'next' });
      const body = (await (await gateway.request('/v1/acme/broadcasts')).json()) as { items: Record<string, unknown>[]; has_more: boolean; next_cursor: string };
      expect(body).toMatchObject({ has_more: true, next_cursor: 'next' });
      expect(body.items).toEqual([expect.objectContaining({ status: 'paused', pause_reason: 'messaging_limit', send_window: { from: '09:00', to: '18:00' } })]);
    });

    it.each(['status=done', 'limit=0', 'limit=101'])('is 400 INVALID_REQUEST for %s', async (query) => {
      expect(await errorOf(await gateway.request(`/v1/acme/broadcasts?${query}`))).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
      expect(gateway.broadcasts.calls).toEqual([]);
    });
  });

  describe('GET /{slug}/broadcasts/{uuid}', () => {
    it('answers the broadcast with its counts, reasons, codes and rate', async () => {
      const response = await gateway.request(`/v1/acme/broadcasts/${KNOWN_BROADCAST_UUID}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'running',
        pause_reason: null,
        started_at: '2026-03-01T15:00:00.120Z',
        finished_at: null,
        counts: { total: 10, pending: 4, sent: 2, delivered: 1, read: 0, replied: 0, failed: 1, skipped: 2, unknown: 0 },
        skipped_by_reason: { opted_out: 1, duplicate: 1 },
        failed_by_code: { RECIPIENT_UNDELIVERABLE: 1 },
        rate: { max_per_second: 40, current_per_second: 12.5 },
      });
      expect(gateway.broadcasts.callsOf('getBroadcast')[0]!.request).toEqual({ caller, uuid: KNOWN_BROADCAST_UUID });
    });

    it('is 404 BROADCAST_NOT_FOUND for an unknown one and 400 for a uuid that is not one', async () => {
      expect(await errorOf(await gateway.request('/v1/acme/broadcasts/11111111-2222-4333-8444-555555555555'))).toMatchObject({ status: 404, code: 'BROADCAST_NOT_FOUND' });
      expect(await errorOf(await gateway.request('/v1/acme/broadcasts/march'))).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: expect.stringContaining('uuid') });
    });

    it('shows why a failed broadcast failed', async () => {
      gateway.broadcasts.overrides.getBroadcast = async () => ({ ...runningBroadcast(), status: 'failed', error: { code: 'FILE_NOT_FOUND', message: 'No confirmed file.' } });
      const response = await gateway.request(`/v1/acme/broadcasts/${KNOWN_BROADCAST_UUID}`);
      expect(await response.json()).toMatchObject({ status: 'failed', error: { code: 'FILE_NOT_FOUND', message: 'No confirmed file.' } });
    });

    it('answers 500 when the service names a status the API does not have', async () => {
      gateway.broadcasts.overrides.getBroadcast = async () => ({ ...runningBroadcast(), status: 'sending' });
      expect((await gateway.request(`/v1/acme/broadcasts/${KNOWN_BROADCAST_UUID}`)).status).toBe(500);
    });
  });

  describe('POST /{slug}/broadcasts/{uuid}/<transition>', () => {
    it.each([
      ['pause', 'pause'],
      ['resume', 'resume'],
      ['cancel', 'cancel'],
      ['retry-failed', 'retry_failed'],
    ])('/%s sends ChangeBroadcastState with transition %s and answers 200 with the broadcast', async (path, transition) => {
      const response = await post(`/broadcasts/${KNOWN_BROADCAST_UUID}/${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ uuid: KNOWN_BROADCAST_UUID, status: 'running' });
      expect(gateway.broadcasts.callsOf('changeBroadcastState').map((call) => call.request)).toEqual([{ caller, uuid: KNOWN_BROADCAST_UUID, transition }]);
    });

    it('answers 409 BROADCAST_STATE_CONFLICT and 404 BROADCAST_NOT_FOUND from the service', async () => {
      gateway.broadcasts.overrides.changeBroadcastState = async () => {
        throw new CatalogError('BROADCAST_STATE_CONFLICT', 'A completed broadcast cannot be paused.');
      };
      expect(await errorOf(await post(`/broadcasts/${KNOWN_BROADCAST_UUID}/pause`))).toEqual({ status: 409, code: 'BROADCAST_STATE_CONFLICT', message: 'A completed broadcast cannot be paused.' });
      delete gateway.broadcasts.overrides.changeBroadcastState;
      expect(await errorOf(await post('/broadcasts/11111111-2222-4333-8444-555555555555/cancel'))).toMatchObject({ status: 404, code: 'BROADCAST_NOT_FOUND' });
    });
  });

  describe('GET /{slug}/broadcasts/{uuid}/recipients', () => {
    const recipients: BroadcastRecipient[] = [
      {
        contact: { uuid: '11111111-2222-4333-8444-555555555555', phone: '+5215512345678' },
        status: 'failed',
        reason: undefined,
        error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'Message undeliverable.' },
        provider_code: '131026',
        message_uuid: '22222222-2222-4333-8444-555555555555',
        sent_at: undefined,
      },
      { contact: { uuid: undefined, phone: undefined }, status: 'skipped', reason: 'invalid_row', error: undefined, provider_code: undefined, message_uuid: undefined, sent_at: undefined },
      {
        contact: { uuid: '33333333-2222-4333-8444-555555555555', phone: '+5215587654321' },
        status: 'read',
        reason: undefined,
        error: undefined,
        provider_code: undefined,
        message_uuid: '44444444-2222-4333-8444-555555555555',
        sent_at: '2026-03-01T15:00:01.000Z',
      },
    ];

    it('passes the status filter and paging, and maps each recipient: error with provider_code, reason, message', async () => {
      gateway.broadcasts.overrides.listBroadcastRecipients = async () => ({ items: recipients, has_more: false, next_cursor: '' });
      const response = await gateway.request(`/v1/acme/broadcasts/${KNOWN_BROADCAST_UUID}/recipients?status=failed&limit=10`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        items: [
          {
            contact: { uuid: '11111111-2222-4333-8444-555555555555', phone: '+5215512345678' },
            status: 'failed',
            reason: null,
            error: { code: 'RECIPIENT_UNDELIVERABLE', message: 'Message undeliverable.', provider_code: '131026' },
            message: { uuid: '22222222-2222-4333-8444-555555555555' },
            sent_at: null,
          },
          { contact: { uuid: null, phone: null }, status: 'skipped', reason: 'invalid_row', error: null, message: null, sent_at: null },
          {
            contact: { uuid: '33333333-2222-4333-8444-555555555555', phone: '+5215587654321' },
            status: 'read',
            reason: null,
            error: null,
            message: { uuid: '44444444-2222-4333-8444-555555555555' },
            sent_at: '2026-03-01T15:00:01.000Z',
          },
        ],
        has_more: false,
        next_cursor: '',
      });
      expect(gateway.broadcasts.callsOf('listBroadcastRecipients')[0]!.request).toEqual({ caller, uuid: KNOWN_BROADCAST_UUID, status: 'failed', cursor: undefined, limit: 10 });
    });

    it('is 400 for an unknown status and 404 BROADCAST_NOT_FOUND for an unknown broadcast', async () => {
      expect(await errorOf(await gateway.request(`/v1/acme/broadcasts/${KNOWN_BROADCAST_UUID}/recipients?status=lost`))).toMatchObject({ status: 400, message: expect.stringContaining('status') });
      expect(await errorOf(await gateway.request('/v1/acme/broadcasts/11111111-2222-4333-8444-555555555555/recipients'))).toMatchObject({ status: 404, code: 'BROADCAST_NOT_FOUND' });
    });
  });
});
