import { randomUUID } from 'node:crypto';
import { ConversationsServiceClient } from '@cmsg/proto';
import { type TestBusiness, contactSeed, createTestBusiness, storedCollection } from '@cmsg/testing';
import { stackGrpcClient } from '@cmsg/testing/grpc';

/**
 * AddNote with an operation id adds its note once (an action group's context_note re-run after a
 * crash of the runner must not add a second note); without one, every call adds a note.
 */
describe('gRPC AddNote: once per operation id', () => {
  const client = stackGrpcClient(ConversationsServiceClient, 'conversations', { deadlineMs: 10_000 });
  let business: TestBusiness;
  const conversation = randomUUID();

  beforeAll(async () => {
    business = await createTestBusiness((seed) => void contactSeed(seed, { conversation: { uuid: conversation } }));
  });

  afterAll(() => client.close());

  const caller = () => ({ business_id: business.businessId, token_uuid: business.tokenUuid });
  const notesWith = (body: string) => storedCollection('timeline_events').countDocuments({ business_id: business.businessId, kind: 'note', body });

  it('50 concurrent repeats and a later one store one note and answer its uuid every time', async () => {
    const note = `once ${randomUUID()}`;
    const operation_id = `${randomUUID()}:0`;
    const add = () => client.rpc.addNote({ caller: caller(), conversation: { uuid: conversation }, note, operation_id });
    const answers = await Promise.all(Array.from({ length: 50 }, add));
    const later = await add();
    const uuids = new Set([...answers, later].map((answer) => answer.note?.uuid));
    expect(uuids.size).toBe(1);
    expect(new Set([...answers, later].map((answer) => answer.note?.created_at)).size).toBe(1);
    expect(await notesWith(note)).toBe(1);
  });

  it('without an operation id each call adds a note', async () => {
    const note = `each ${randomUUID()}`;
    const add = () => client.rpc.addNote({ caller: caller(), conversation: { uuid: conversation }, note, operation_id: '' });
    const [first, second] = [await add(), await add()];
    expect(first.note?.uuid).not.toBe(second.note?.uuid);
    expect(await notesWith(note)).toBe(2);
  });

  it('an operation id of one business never answers another business\'s note', async () => {
    const other = await createTestBusiness((seed) => void contactSeed(seed, { conversation: { uuid: randomUUID() } }));
    const operation_id = `${randomUUID()}:0`;
    const mine = await client.rpc.addNote({ caller: caller(), conversation: { uuid: conversation }, note: 'mine', operation_id });
    const otherConversation = (await storedCollection('conversations').findOne({ business_id: other.businessId }))!._id as unknown as string;
    const theirs = await client.rpc.addNote({ caller: { business_id: other.businessId, token_uuid: other.tokenUuid }, conversation: { uuid: otherConversation }, note: 'theirs', operation_id });
    expect(theirs.note?.uuid).not.toBe(mine.note?.uuid);
    expect(theirs.conversation?.uuid).toBe(otherConversation);
  });
});
