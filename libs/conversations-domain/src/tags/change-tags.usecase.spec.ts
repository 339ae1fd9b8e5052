import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { InMemoryConversationChanges } from '../testing/in-memory-conversation-changes';
import { InMemoryTags, tagRow } from '../testing/in-memory-tags';
import { RecordingOutbox } from '../testing/recording-outbox';
import { type ChangeTagsCommand, changeTags } from './change-tags.usecase';

describe('changeTags', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  const actor = { type: 'api_token' as const, uuid: 'tok-1' };
  let lookup: InMemoryConversationLookup;
  let tags: InMemoryTags;
  let conversationTags: InMemoryConversationChanges;
  let outbox: RecordingOutbox;

  const change = (command: Partial<ChangeTagsCommand>, scope = b1) =>
    changeTags({ lookup, tags, conversationTags, outbox, clock: () => NOW }, scope, {
      reference: { uuid: 'conv-ana' },
      tags: [{ name: 'vip' }],
      direction: 'assign',
      policy: 'conflict',
      actor,
      ...command,
    });
  const ana = () => lookup.conversationRows.find((row) => row._id === 'conv-ana')!;

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { tag_ids: ['t-lead'], event_sequence: 4 });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    tags = new InMemoryTags();
    tags.rows.push(
      tagRow({ _id: 't-lead', business_id: 'b1', name: 'Lead', color: '#00f' }),
      tagRow({ _id: 't-vip', business_id: 'b1', name: 'VIP', color: '#f00' }),
      tagRow({ _id: 't-late', business_id: 'b1', name: 'Late' }),
      tagRow({ _id: 't-new', business_id: 'b1', name: 'New contact', is_default: true }),
      tagRow({ _id: 't-dup-1', business_id: 'b1', name: 'Dup' }),
      tagRow({ _id: 't-dup-2', business_id: 'b1', name: 'dup' }),
      tagRow({ _id: 't-other', business_id: 'b2', name: 'VIP' }),
    );
    conversationTags = new InMemoryConversationChanges(lookup);
    outbox = new RecordingOutbox();
  });

  it('assigns the tags in one update whose tags_changed entry (with its sequence) is recorded, and answers the tags after it', async () => {
    const response = await change({ tags: [{ name: 'vip' }, { uuid: 't-late' }] });
    expect(response).toEqual({
      conversation: { uuid: 'conv-ana' },
      tags: [
        { uuid: 't-lead', name: 'Lead', color: '#00f' },
        { uuid: 't-vip', name: 'VIP', color: '#f00' },
        { uuid: 't-late', name: 'Late', color: '' },
      ],
      results: [
        { requested: { name: 'vip' }, tag: { uuid: 't-vip', name: 'VIP', color: '#f00' }, status: 'assigned', error: undefined },
        { requested: { uuid: 't-late' }, tag: { uuid: 't-late', name: 'Late', color: '' }, status: 'assigned', error: undefined },
      ],
    });
    expect(ana().tag_ids).toEqual(['t-lead', 't-vip', 't-late']);
    const entry = {
      id: expect.any(String),
      type: 'conversation.tags_changed',
      conversation_id: 'conv-ana',
      data: { added: ['t-vip', 't-late'], removed: [] },
      author: { type: 'api_token', uuid: 'tok-1', name: null },
      created_at: NOW,
    };
    expect(conversationTags.outboxes.get('conv-ana')).toEqual([entry]);
    expect(outbox.recorded).toEqual([{ collection: 'conversations', businessId: 'b1', documentId: 'conv-ana', entries: [{ ...entry, sequence: 5, conversation: expect.objectContaining({ _id: 'conv-ana', event_sequence: 5, tag_ids: expect.arrayContaining(['t-lead']) }) }] }]);
  });

  it('removes tags, the entry listing them as removed', async () => {
    const response = await change({ tags: [{ uuid: 't-lead' }], direction: 'remove' });
    expect(response.tags).toEqual([]);
    expect(response.results.map((result) => result.status)).toEqual(['removed']);
    expect(outbox.recorded[0]!.entries[0]!.data).toEqual({ added: [], removed: ['t-lead'] });
  });

  it('applies a tag requested twice once', async () => {
    const response = await change({ tags: [{ uuid: 't-vip' }, { name: 'VIP' }] });
    expect(response.results.map((result) => result.status)).toEqual(['assigned', 'assigned']);
    expect(outbox.recorded[0]!.entries[0]!.data).toEqual({ added: ['t-vip'], removed: [] });
  });

  it('judges each reference on its own: the others are applied, each failure reported with its catalog code', async () => {
    const response = await change({ tags: [{ uuid: 't-vip' }, { name: 'nobody' }, { uuid: 't-other' }, { name: 'dup' }, { uuid: 't-new' }, { uuid: 't-lead' }, {}] });
    expect(response.results.map((result) => [result.status, result.error?.code])).toEqual([
      ['assigned', undefined],
      ['failed', 'TAG_NOT_FOUND'],
      ['failed', 'TAG_BUSINESS_MISMATCH'],
      ['failed', 'TAG_AMBIGUOUS'],
      ['failed', 'CANNOT_ASSIGN_DEFAULT_TAG'],
      ['failed', 'TAG_ALREADY_ASSIGNED'],
      ['failed', 'INVALID_REQUEST'],
    ]);
    expect(response.results[2]!.error!.message).toBe("The tag 't-other' belongs to another business.");
    expect(response.results[5]!.error!.message).toBe("The tag 'Lead' is already on the conversation.");
    expect(outbox.recorded[0]!.entries[0]!.data).toEqual({ added: ['t-vip'], removed: [] });
  });

  it('reports the removal rules: a default tag, a tag not on the conversation', async () => {
    const response = await change({ tags: [{ uuid: 't-new' }, { uuid: 't-vip' }], direction: 'remove' });
    expect(response.results.map((result) => result.error?.code)).toEqual(['CANNOT_REMOVE_DEFAULT_TAG', 'TAG_NOT_ASSIGNED']);
    expect(outbox.recorded).toEqual([]);
  });

  it('with the noop policy, a tag already so is noop and nothing is written or recorded', async () => {
    const response = await change({ tags: [{ uuid: 't-lead' }], policy: 'noop' });
    expect(response.results.map((result) => [result.status, result.error])).toEqual([['noop', undefined]]);
    expect(conversationTags.outboxes.size).toBe(0);
    expect(outbox.recorded).toEqual([]);
  });

  it('plans again on the conversation as it is when its update lost to a concurrent change', async () => {
    conversationTags.losses = 2;
    expect((await change({ tags: [{ uuid: 't-vip' }] })).results.map((result) => result.status)).toEqual(['assigned']);
    expect(outbox.recorded).toHaveLength(1);
  });

  it(`gives up with UPDATE_FAILED when the conversation kept changing for ${MAX_CHANGE_ROUNDS} rounds`, async () => {
    conversationTags.losses = MAX_CHANGE_ROUNDS;
    await expect(change({ tags: [{ uuid: 't-vip' }] })).rejects.toMatchObject({ code: 'UPDATE_FAILED', message: 'The conversation tags kept changing during the update; retry.' });
    expect(ana().tag_ids).toEqual(['t-lead']);
    expect(outbox.recorded).toEqual([]);
  });

  it('refuses an empty list with INVALID_REQUEST', async () => {
    await expect(change({ tags: [] })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: 'tags: at least one tag reference is required.' });
  });

  it("answers CONVERSATION_NOT_FOUND for another business's conversation, changing nothing", async () => {
    await expect(change({ reference: { uuid: 'conv-cy' } })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    await expect(change({ reference: { uuid: 'conv-ana' }, tags: [{ uuid: 't-other' }] }, businessScope('b2'))).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(outbox.recorded).toEqual([]);
  });
});
