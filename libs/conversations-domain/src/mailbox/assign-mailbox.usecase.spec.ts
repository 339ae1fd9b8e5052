import { businessScope } from '@cmsg/dal';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { InMemoryConversationChanges } from '../testing/in-memory-conversation-changes';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { InMemoryMailboxDirectory, categoryRow, mailboxRow } from '../testing/in-memory-mailboxes';
import { RecordingOutbox } from '../testing/recording-outbox';
import { type AssignMailboxCommand, assignMailbox } from './assign-mailbox.usecase';

describe('assignMailbox', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  const actor = { type: 'api_token' as const, uuid: 'tok-1' };
  let lookup: InMemoryConversationLookup;
  let directory: InMemoryMailboxDirectory;
  let changes: InMemoryConversationChanges;
  let outbox: RecordingOutbox;

  const assign = (command: Partial<AssignMailboxCommand>, scope = b1) =>
    assignMailbox({ lookup, mailboxes: directory, conversationMailbox: changes, outbox, clock: () => NOW }, scope, {
      reference: { uuid: 'conv-ana' },
      mailbox: { name: 'Sales' },
      policy: 'conflict',
      actor,
      ...command,
    });
  const ana = () => lookup.conversationRows.find((row) => row._id === 'conv-ana')!;

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1' }, { mailbox_id: 'mb-support', event_sequence: 7 });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    directory = new InMemoryMailboxDirectory();
    directory.categories.rows.push(
      categoryRow({ _id: 'cat-teams', business_id: 'b1', name: 'Teams' }),
      categoryRow({ _id: 'cat-empty', business_id: 'b1', name: 'Empty' }),
      categoryRow({ _id: 'cat-dup-1', business_id: 'b1', name: 'Dup' }),
      categoryRow({ _id: 'cat-dup-2', business_id: 'b1', name: 'DUP' }),
      categoryRow({ _id: 'cat-other', business_id: 'b2', name: 'Teams' }),
    );
    directory.mailboxes.rows.push(
      mailboxRow({ _id: 'mb-support', business_id: 'b1', category_id: 'cat-teams', name: 'Support' }),
      mailboxRow({ _id: 'mb-sales', business_id: 'b1', category_id: 'cat-teams', name: 'Sales' }),
      mailboxRow({ _id: 'mb-x1', business_id: 'b1', category_id: 'cat-other-teams', name: 'Twin' }),
      mailboxRow({ _id: 'mb-x2', business_id: 'b1', category_id: 'cat-other-teams', name: 'twin' }),
      mailboxRow({ _id: 'mb-foreign', business_id: 'b2', category_id: 'cat-other', name: 'Foreign' }),
    );
    changes = new InMemoryConversationChanges(lookup);
    outbox = new RecordingOutbox();
  });

  it('moves the conversation with one mailbox_changed entry (from and to, named), recorded with its sequence', async () => {
    expect(await assign({ mailbox: { name: 'sales' } })).toEqual({ conversation: { uuid: 'conv-ana' }, mailbox: { uuid: 'mb-sales', name: 'Sales' }, noop: false });
    expect(ana()).toMatchObject({ mailbox_id: 'mb-sales', updated_at: NOW });
    const entry = {
      id: expect.any(String),
      type: 'conversation.mailbox_changed',
      conversation_id: 'conv-ana',
      data: { from: { type: 'mailbox', uuid: 'mb-support', name: 'Support' }, to: { type: 'mailbox', uuid: 'mb-sales', name: 'Sales' } },
      author: { type: 'api_token', uuid: 'tok-1', name: null },
      created_at: NOW,
    };
    expect(changes.outboxes.get('conv-ana')).toEqual([entry]);
    expect(outbox.recorded).toEqual([{ collection: 'conversations', businessId: 'b1', documentId: 'conv-ana', entries: [{ ...entry, sequence: 8, conversation: expect.objectContaining({ _id: 'conv-ana', event_sequence: 8 }) }] }]);
  });

  it('names a mailbox the conversation leaves that no longer exists with its uuid only, and none when it had none', async () => {
    ana().mailbox_id = 'mb-removed';
    await assign({ mailbox: { uuid: 'mb-sales' } });
    expect(outbox.recorded[0]!.entries[0]!.data).toMatchObject({ from: { type: 'mailbox', uuid: 'mb-removed', name: null } });
    ana().mailbox_id = null;
    await assign({ mailbox: { uuid: 'mb-support' } });
    expect(outbox.recorded[1]!.entries[0]!.data).toMatchObject({ from: null });
  });

  it("by category, moves it to the category's first mailbox by name", async () => {
    ana().mailbox_id = null;
    expect((await assign({ mailbox: undefined, category: { name: 'teams' } })).mailbox).toEqual({ uuid: 'mb-sales', name: 'Sales' });
  });

  it('already in the mailbox: MAILBOX_ALREADY_ASSIGNED, or a no-op with the noop policy; nothing written either way', async () => {
    await expect(assign({ mailbox: { uuid: 'mb-support' } })).rejects.toMatchObject({ code: 'MAILBOX_ALREADY_ASSIGNED', message: "The conversation is already in the mailbox 'Support'." });
    expect(await assign({ mailbox: { uuid: 'mb-support' }, policy: 'noop' })).toEqual({ conversation: { uuid: 'conv-ana' }, mailbox: { uuid: 'mb-support', name: 'Support' }, noop: true });
    expect(outbox.recorded).toEqual([]);
  });

  it.each([
    ['neither mailbox nor category', 'INVALID_REQUEST', { mailbox: undefined }],
    ['both mailbox and category', 'INVALID_REQUEST', { category: { name: 'Teams' } }],
    ['an unknown mailbox', 'MAILBOX_NOT_FOUND', { mailbox: { name: 'Nobody' } }],
    ["another business's mailbox", 'MAILBOX_NOT_FOUND', { mailbox: { uuid: 'mb-foreign' } }],
    ['a mailbox name several share', 'AMBIGUOUS_MAILBOX', { mailbox: { name: 'TWIN' } }],
    ['an unknown category', 'CATEGORY_NOT_FOUND', { mailbox: undefined, category: { name: 'Nobody' } }],
    ["another business's category", 'CATEGORY_BUSINESS_MISMATCH', { mailbox: undefined, category: { uuid: 'cat-other' } }],
    ['a category name several share', 'AMBIGUOUS_CATEGORY', { mailbox: undefined, category: { name: 'dup' } }],
    ['a category with no mailboxes', 'NO_MAILBOXES_IN_CATEGORY', { mailbox: undefined, category: { uuid: 'cat-empty' } }],
    ["another business's conversation", 'CONVERSATION_NOT_FOUND', { reference: { uuid: 'conv-cy' } }],
  ])('refuses %s with %s, changing nothing', async (_case, code, command) => {
    await expect(assign(command as Partial<AssignMailboxCommand>)).rejects.toMatchObject({ code });
    expect(ana().mailbox_id).toBe('mb-support');
    expect(outbox.recorded).toEqual([]);
  });

  it('decides again on the conversation as it is when a concurrent move got there first', async () => {
    changes.losses = 1;
    // The concurrent move: the conversation is in Sales when this one reads it again.
    const original = lookup.conversations.findById;
    lookup.conversations.findById = async (scope, id) => {
      const row = await original(scope, id);
      if (row && changes.losses === 0) row.mailbox_id = 'mb-sales';
      return row;
    };
    expect((await assign({ mailbox: { uuid: 'mb-sales' }, policy: 'noop' })).noop).toBe(true);
    expect(outbox.recorded).toEqual([]);
  });

  it(`gives up with UPDATE_FAILED when the conversation kept changing for ${MAX_CHANGE_ROUNDS} rounds`, async () => {
    changes.losses = MAX_CHANGE_ROUNDS;
    await expect(assign({})).rejects.toMatchObject({ code: 'UPDATE_FAILED', message: 'The conversation mailbox kept changing during the update; retry.' });
    expect(ana().mailbox_id).toBe('mb-support');
  });
});
