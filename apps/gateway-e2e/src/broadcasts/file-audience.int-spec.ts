import { storedCollection, uniquePhone } from '@cmsg/testing';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase, openConversation, phoneOf } from '../action-groups/action-group-fixtures';
import { put } from '../files/file-fixtures';
import { lastRequestSeq, messageRequests } from '../messaging/messaging-fixtures';
import { broadcastBody, storedRecipients, waitForBroadcast } from './broadcast-fixtures';

const digits = (phone: string) => phone.replace(/\D/g, '');

/** Broadcast audiences from an uploaded file (CONTRACT 10.4, docs/broadcasts.md "File audiences") on the real stack. */
describe('broadcasts to a file audience', () => {
  let business: ActionsBusiness;
  let existingConversation: string;
  let existingNdjsonConversation: string;

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      existingConversation = openConversation(seed, {}, { first_name: 'Existing' });
      existingNdjsonConversation = openConversation(seed, {}, { first_name: 'Numbered' });
    });
  });

  afterAll(() => disconnectStackDatabase());

  const api = () => business.api;
  const businessId = () => business.businessId;
  const contactByPhone = (phone: string) => storedCollection('contacts').findOne({ business_id: businessId(), phone_key: digits(phone) });

  /** request-upload (module broadcast_audiences unless said), PUT, confirm: the file's uuid. */
  async function upload(content: string, mimeType: string, module = 'broadcast_audiences', confirm = true): Promise<string> {
    const bytes = Buffer.from(content, 'utf8');
    const requested = await api().post('/files/request-upload', { module, file_name: 'audience', mime_type: mimeType, size: bytes.length });
    expect(requested.status).toBe(201);
    expect((await put(requested.body.upload.url, bytes)).status).toBe(204);
    if (confirm) {
      const confirmed = await api().post('/files/confirm', { file_uuid: requested.body.file.uuid });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.file).toMatchObject({ status: 'confirmed', mime_type: mimeType, size: bytes.length });
    }
    return requested.body.file.uuid;
  }

  /** The template's {{1}} each phone (digits) was sent, from the fake Cloud API. */
  async function sentCodes(since: number): Promise<Record<string, string>> {
    const calls = (await messageRequests(business, since)).filter((call) => call.status === 200);
    return Object.fromEntries(calls.map((call) => [call.to!, (call.body as any).template.components[0].parameters[0].text]));
  }

  it('from a CSV: previews without creating contacts, upserts each row, skips bad rows, sends each recipient its own row value', async () => {
    const existing = `+${phoneOf(business.seed, existingConversation)}`;
    const [fresh1, fresh2, fresh3, fresh4, fresh5] = Array.from({ length: 5 }, uniquePhone);
    const spaced = (phone: string) => `${phone.slice(0, 3)} ${phone.slice(3, 6)} (${phone.slice(6, 9)}) ${phone.slice(9)}`;
    const csv = [
      'phone,name,code',
      `${existing},Old,E1`, // an existing contact
      `${fresh1},New,N1`, // a new contact
      `${spaced(fresh2)},"Silva, Ana",N2`, // a new contact, phone with spaces and parentheses
      `${digits(existing)},Again,D1`, // the existing contact again: duplicate
      '12345,Short,X1', // invalid_phone
      `${fresh3},only two`, // malformed: two fields where the header has three
      `${fresh4},Ma"lformed,X2`, // malformed: a quote inside an unquoted field
      `${fresh5},Blank,`, // an empty code and no fallback: missing_variable
    ].join('\r\n');
    const file = await upload(`${csv}\r\n`, 'text/csv');
    const body = broadcastBody(business, { audience: { file_uuid: file }, variables: [{ index: 1, value: '{{row.code}}' }] });
    const expectedSkips = { duplicate: 1, invalid_phone: 1, invalid_row: 2, missing_variable: 1 };

    const preview = await api().post('/broadcasts/preview', body);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ total: 8, skipped_by_reason: expectedSkips });
    expect(await contactByPhone(fresh1)).toBeNull();

    const since = await lastRequestSeq();
    const created = await api().post('/broadcasts', body);
    expect(created.status).toBe(201);
    await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed', 90_000);
    const shown = await api().get(`/broadcasts/${created.body.uuid}`);
    expect(shown.body).toMatchObject({
      status: 'completed',
      counts: { total: 8, pending: 0, sent: 3, failed: 0, skipped: 5, unknown: 0 },
      skipped_by_reason: expectedSkips,
    });

    expect(await sentCodes(since)).toEqual({ [digits(existing)]: 'E1', [digits(fresh1)]: 'N1', [digits(fresh2)]: 'N2' });
    const recipients = await storedRecipients(created.body.uuid);
    expect(recipients.map((recipient) => [recipient['seq'], recipient['row'], recipient['status'], recipient['reason']])).toEqual([
      [0, 1, 'sent', null],
      [1, 2, 'sent', null],
      [2, 3, 'sent', null],
      [3, 4, 'skipped', 'duplicate'],
      [4, 5, 'skipped', 'invalid_phone'],
      [5, 6, 'skipped', 'invalid_row'],
      [6, 7, 'skipped', 'invalid_row'],
      [7, 8, 'skipped', 'missing_variable'],
    ]);

    // Each valid row's contact exists (created as POST /contacts would, with its conversation); the existing one kept its name.
    // The new ones were created together, each with its two events recorded once (conversation.created
    // first, as POST /contacts records them) and nothing left in an outbox.
    for (const phone of [fresh1, fresh2, fresh5]) {
      const contact = await contactByPhone(phone);
      expect(contact).toMatchObject({ phone: `+${digits(phone)}`, channel_id: expect.any(String), acquisition_source: 'api', outbox: [] });
      const conversation = await storedCollection('conversations').findOne({ business_id: businessId(), contact_id: contact!['_id'] });
      expect(conversation).toMatchObject({ inbox_status: 'resolved', outbox: [] });
      const events = await storedCollection('events')
        .find({ business_id: businessId(), conversation_id: conversation!['_id'], type: { $in: ['conversation.created', 'contact.created'] } })
        .sort({ sequence: 1 })
        .toArray();
      expect(events.map((event) => [event['type'], event['sequence']])).toEqual([
        ['conversation.created', 1],
        ['contact.created', 2],
      ]);
      expect(events[1]!['data']).toEqual({ contact: { uuid: contact!['_id'] } });
    }
    expect(await contactByPhone(existing)).toMatchObject({ first_name: 'Existing' });
    expect(recipients[0]!['contact_id']).toBe((await contactByPhone(existing))!['_id']);
    expect(recipients[3]!['contact_id']).toBe(recipients[0]!['contact_id']);
    for (const phone of [fresh3, fresh4]) expect(await contactByPhone(phone)).toBeNull();
  });

  it('from NDJSON: a JSON object per line, the phone a string or a number', async () => {
    const existing = phoneOf(business.seed, existingNdjsonConversation);
    const [fresh1, fresh2] = [uniquePhone(), uniquePhone()];
    const ndjson = [
      JSON.stringify({ phone: fresh1, code: 'J1' }),
      `{"phone": ${existing}, "code": "J2", "extra": true}`,
      JSON.stringify({ phone: fresh2 }), // no code: missing_variable
      JSON.stringify({ code: 'J4' }), // no phone: invalid_row
      'not json', // invalid_row
      JSON.stringify({ phone: '123', code: 'J6' }), // invalid_phone
      JSON.stringify({ phone: fresh1, code: 'J7' }), // duplicate
    ].join('\n');
    const file = await upload(ndjson, 'application/x-ndjson');

    const since = await lastRequestSeq();
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { file_uuid: file }, variables: [{ index: 1, value: '{{row.code}}' }] }));
    expect(created.status).toBe(201);
    const done = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed', 90_000);
    expect(done['counts']).toMatchObject({ total: 7, sent: 2, skipped: 5, pending: 0 });
    expect(done['skipped_by_reason']).toEqual({ missing_variable: 1, invalid_row: 2, invalid_phone: 1, duplicate: 1 });
    expect(await sentCodes(since)).toEqual({ [digits(fresh1)]: 'J1', [existing]: 'J2' });
    expect(await contactByPhone(fresh2)).not.toBeNull();
  });

  it('resumes a file past GridFS chunk boundaries between freeze batches: every row once, in order', async () => {
    // 1,200 rows of about 300 bytes: three freeze batches of up to 500 rows, the later ones starting
    // past the first 255 KiB GridFS chunk. Rows whose phone is too short are skipped without a contact.
    const valid = new Map([[1, uniquePhone()], [501, uniquePhone()], [999, uniquePhone()], [1200, uniquePhone()]]);
    const padding = 'p'.repeat(280);
    const rows = Array.from({ length: 1200 }, (_, index) => `${valid.get(index + 1) ?? '123'},R${index + 1},${padding}`);
    const file = await upload(`phone,code,padding\n${rows.join('\n')}\n`, 'text/csv');

    const since = await lastRequestSeq();
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { file_uuid: file }, variables: [{ index: 1, value: '{{row.code}}' }] }));
    expect(created.status).toBe(201);
    const done = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'completed', 90_000);
    expect(done['counts']).toMatchObject({ total: 1200, sent: 4, skipped: 1196 });
    expect(done['skipped_by_reason']).toEqual({ invalid_phone: 1196 });
    expect(done['freeze']).toMatchObject({ rows: 1200, next_seq: 1200 });
    expect(await sentCodes(since)).toEqual(Object.fromEntries([...valid].map(([row, phone]) => [digits(phone), `R${row}`])));
    const recipients = await storedRecipients(created.body.uuid);
    expect(recipients.map((recipient) => recipient['row'])).toEqual(Array.from({ length: 1200 }, (_, index) => index + 1));
    expect(recipients.map((recipient) => recipient['seq'])).toEqual(Array.from({ length: 1200 }, (_, index) => index));
  });

  it('refuses what is not an audience file: 404 FILE_NOT_FOUND, and 400 for a CSV without a phone column or a column the variables read', async () => {
    const refused = async (audience: Record<string, unknown>, variables: unknown[], status: number, code: string, message?: RegExp) => {
      const answer = await api().post('/broadcasts', broadcastBody(business, { audience, variables }));
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code });
      if (message) expect(answer.body.message).toMatch(message);
    };
    const mediaFile = await upload('Lista de precios\n', 'text/plain', 'api_messages');
    await refused({ file_uuid: mediaFile }, [], 404, 'FILE_NOT_FOUND');
    const unconfirmed = await upload(`phone\n${uniquePhone()}\n`, 'text/csv', 'broadcast_audiences', false);
    await refused({ file_uuid: unconfirmed }, [], 404, 'FILE_NOT_FOUND');

    const noPhone = await upload('name,code\nAna,A1\n', 'text/csv');
    await refused({ file_uuid: noPhone }, [], 400, 'INVALID_REQUEST', /phone column/);
    const withCode = await upload(`phone,code\n${uniquePhone()},A1\n`, 'text/csv');
    await refused({ file_uuid: withCode }, [{ index: 1, value: '{{row.coupon}}' }], 400, 'INVALID_REQUEST', /coupon/);
    await refused({ filter: { and: [{ field: 'first_name', op: 'eq', value: 'Nobody' }] } }, [{ index: 1, value: '{{row.code}}' }], 400, 'INVALID_REQUEST', /file audience/);
  });

  it('fails, with its error, when its file can no longer be read once it starts: nothing sent, state failed', async () => {
    const since = await lastRequestSeq();
    const file = await upload(`phone\n${uniquePhone()}\n`, 'text/csv');
    const created = await api().post('/broadcasts', broadcastBody(business, { audience: { file_uuid: file }, send_at: new Date(Date.now() + 2_000).toISOString() }));
    expect([created.status, created.body.status, created.body.error]).toEqual([201, 'scheduled', null]);
    // The file stops being a confirmed file of the business before the audience is frozen.
    await storedCollection('files').updateOne({ _id: file }, { $set: { status: 'expired' } });
    const failed = await waitForBroadcast(created.body.uuid, (broadcast) => broadcast['status'] === 'failed');
    expect(failed['error']).toMatchObject({ code: 'FILE_NOT_FOUND' });
    const shown = await api().get(`/broadcasts/${created.body.uuid}`);
    expect(shown.body).toMatchObject({ status: 'failed', error: { code: 'FILE_NOT_FOUND', message: expect.any(String) }, finished_at: expect.any(String), counts: { total: 0, pending: 0 } });
    expect((await api().post(`/broadcasts/${created.body.uuid}/resume`, {})).body.code).toBe('BROADCAST_STATE_CONFLICT');
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('keeps each upload module to its own types', async () => {
    const requestUpload = (module: string, mimeType: string) => api().post('/files/request-upload', { module, file_name: 'f', mime_type: mimeType, size: 10 });
    expect((await requestUpload('api_messages', 'text/csv')).body.code).toBe('INVALID_FILE_TYPE');
    const image = await requestUpload('broadcast_audiences', 'image/png');
    expect({ status: image.status, code: image.body.code }).toEqual({ status: 400, code: 'INVALID_FILE_TYPE' });
    const tooLarge = await api().post('/files/request-upload', { module: 'broadcast_audiences', file_name: 'f', mime_type: 'text/csv', size: 100 * 1024 * 1024 + 1 });
    expect({ status: tooLarge.status, code: tooLarge.body.code }).toEqual({ status: 400, code: 'FILE_TOO_LARGE' });
  });
});
