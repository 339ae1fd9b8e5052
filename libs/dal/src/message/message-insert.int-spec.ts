import { randomUUID } from 'node:crypto';
import { connectToOwnDatabase, dropConnectedDatabase } from '@cmsg/testing-database';
import { ensureIndexes } from '../mongo-connection';
import { businessScope } from '../shared/business-scope';
import type { OutboxEntry } from '../shared/outbox-entry.schema';
import { type NewMessage, MessageRepository } from './message.repository';
import { MessageModel } from './message.schema';

/**
 * insertIfAbsent stores a message without a mongoose document (castDocument): what it stores must be
 * what MessageModel.create stores for the same fields, defaults and casts included.
 */
describe('MessageRepository.insertIfAbsent', () => {
  const scope = businessScope(randomUUID());
  const messages = new MessageRepository();
  const at = new Date('2026-11-30T12:00:00.000Z');

  beforeAll(async () => {
    await connectToOwnDatabase('message_insert_it');
    await ensureIndexes();
  });

  afterAll(async () => {
    await dropConnectedDatabase();
  });

  async function storedBoth(fields: Omit<NewMessage, '_id'>): Promise<[unknown, unknown]> {
    const [inserted, created] = [randomUUID(), randomUUID()];
    expect(await messages.insertIfAbsent(scope, { ...fields, _id: inserted })).toBe(true);
    await MessageModel.create({ ...fields, _id: created, business_id: scope.businessId });
    const [byInsert, byCreate] = await Promise.all([MessageModel.collection.findOne({ _id: inserted as never }), MessageModel.collection.findOne({ _id: created as never })]);
    return [{ ...byInsert, _id: 'id' }, { ...byCreate, _id: 'id' }];
  }

  it("stores an outbound send's claim as create does", async () => {
    const [byInsert, byCreate] = await storedBoth({
      conversation_id: randomUUID(),
      is_from_customer: false,
      body: 'Hola {{1}}',
      content_type: 'template',
      transcription: null,
      outbound_file: null,
      status: 'sending',
      is_simulated: false,
      created_at: at,
      author: { type: 'api_token', uuid: randomUUID(), name: 'CRM' },
      operation_id: randomUUID(),
      operation_part: 0,
      operation_parts: 1,
      sending_started_at: at,
      sending_process: 'conversations-1',
      sending_fence: randomUUID(),
    } as Omit<NewMessage, '_id'>);
    expect(byInsert).toEqual(byCreate);
    expect(byInsert).toMatchObject({ error: null, media: null, pricing: null, status_at: null, provider_message_id: null, media_transcription_pending: false });
    expect(byInsert).not.toHaveProperty('outbox');
  });

  it('stores an inbound message with its media and a simulated one with its outbox entry as create does', async () => {
    const inbound = await storedBoth({
      conversation_id: randomUUID(),
      is_from_customer: true,
      content_type: 'image',
      created_at: at,
      media: { provider_media_id: 'media-1', mime_type: 'image/jpeg' },
    } as Omit<NewMessage, '_id'>);
    expect(inbound[0]).toEqual(inbound[1]);
    expect(inbound[0]).toMatchObject({ body: '', status: 'received', media: { transcription_status: 'pending', file_uuid: null } });

    const entry = { id: randomUUID(), type: 'message.sent', conversation_id: randomUUID(), data: { uuid: 'x' }, author: { type: 'system', uuid: null, name: null }, created_at: at } as OutboxEntry;
    const simulated = await storedBoth({ conversation_id: entry.conversation_id!, is_from_customer: false, status: 'simulated', is_simulated: true, created_at: at, outbox: [entry] } as Omit<NewMessage, '_id'>);
    expect(simulated[0]).toEqual(simulated[1]);
  });

  it('answers false, and changes nothing, for an id that exists', async () => {
    const id = randomUUID();
    const fields = { _id: id, conversation_id: randomUUID(), is_from_customer: true, body: 'first', created_at: at } as NewMessage;
    expect(await messages.insertIfAbsent(scope, fields)).toBe(true);
    expect(await messages.insertIfAbsent(scope, { ...fields, body: 'second' })).toBe(false);
    expect(await MessageModel.collection.findOne({ _id: id as never })).toMatchObject({ body: 'first' });
  });
});
