import { businessScope } from '@cmsg/dal';
import { operationNoteId } from '../conversation/operation-ids';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { inMemoryNotePorts } from '../testing/in-memory-notes';
import { addNote } from './add-note.usecase';

describe('addNote', () => {
  const b1 = businessScope('b1');
  const NOW = new Date('2026-11-29T12:00:00.000Z');
  let lookup: InMemoryConversationLookup;
  let notePorts: ReturnType<typeof inMemoryNotePorts>;
  const ports = () => ({ ...notePorts, lookup, sequences: lookup.sequences });

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    lookup.channelRows.push({ _id: 'ch1', business_id: 'b1', public_key: 'main' }, { _id: 'ch2', business_id: 'b1', public_key: 'support' });
    lookup.addContactWithConversation({ _id: 'ana', business_id: 'b1', channel_id: 'ch1', phone: '+52 55 1234 5678' });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9', phone: '+52 55 9999 0000' });
    notePorts = inMemoryNotePorts(NOW);
  });

  it('stores the note exactly as sent, authored by the token, with its note.created entry, and records that entry', async () => {
    const response = await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana' }, '  Called back; wants the blue one.  ');
    expect(response).toEqual({ conversation: { uuid: 'conv-ana' }, note: { uuid: 'note-1', created_at: NOW.toISOString() } });

    const author = { type: 'api_token', uuid: 'tok-1', name: null };
    const entry = {
      id: expect.any(String),
      type: 'note.created',
      conversation_id: 'conv-ana',
      data: { uuid: 'note-1', kind: 'note', created_at: NOW.toISOString(), author, note: '  Called back; wants the blue one.  ' },
      author,
      created_at: NOW,
    };
    expect(notePorts.notes.rows).toEqual([
      { businessId: 'b1', id: 'note-1', conversationId: 'conv-ana', kind: 'note', body: '  Called back; wants the blue one.  ', author, createdAt: NOW, outbox: [entry] },
    ]);
    // By uuid, the update that found the conversation took the event's sequence: recorded with it.
    expect(notePorts.outbox.recorded).toEqual([{ collection: 'timeline_events', businessId: 'b1', documentId: 'note-1', entries: [{ ...notePorts.notes.rows[0]!.outbox![0], sequence: 1 }] }]);
    expect(lookup.conversationRows.find((row) => row._id === 'conv-ana')!.event_sequence).toBe(1);
  });

  it('finds the conversation by any member of the reference; found otherwise than by uuid, its event takes its sequence when recorded', async () => {
    expect((await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { phone: '+525512345678', channel: 'main' }, 'n')).conversation).toEqual({ uuid: 'conv-ana' });
    expect(notePorts.outbox.recorded[0]!.entries).toEqual([notePorts.notes.rows[0]!.outbox![0]]);
    expect(lookup.conversationRows.find((row) => row._id === 'conv-ana')!.event_sequence).toBe(0);
  });

  it('authors a note without a token as an api_token with no uuid', async () => {
    await addNote(ports(), b1, { tokenUuid: '' }, { uuid: 'conv-ana' }, 'n');
    expect(notePorts.notes.rows[0]!.author).toEqual({ type: 'api_token', uuid: null, name: null });
  });

  it('with an operation id, adds the note once: a repeat answers the first note and records nothing more', async () => {
    const first = await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana' }, 'context', 'op-1');
    expect(first.note!.uuid).toBe(operationNoteId('b1', 'op-1'));
    notePorts.setNow(new Date(NOW.getTime() + 60_000));
    const repeat = await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana' }, 'context', 'op-1');
    expect(repeat).toEqual(first);
    expect(notePorts.notes.rows).toHaveLength(1);
    expect(notePorts.outbox.recorded).toHaveLength(1);
  });

  it('without an operation id, every call adds a note', async () => {
    await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana' }, 'same');
    await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana' }, 'same');
    expect(notePorts.notes.rows.map((row) => row.id)).toEqual(['note-1', 'note-2']);
  });

  it.each([
    ['an unknown uuid', { uuid: 'conv-nobody' }],
    ["another business's conversation", { uuid: 'conv-cy' }],
    ["another business's contact by phone", { phone: '+52 55 9999 0000' }],
    ['a conversation on another channel than the one named', { uuid: 'conv-ana', channel: 'support' }],
  ])('answers CONVERSATION_NOT_FOUND for %s and adds nothing', async (_case, reference) => {
    await expect(addNote(ports(), b1, { tokenUuid: 'tok-1' }, reference, 'n')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    expect(notePorts.notes.rows).toEqual([]);
    expect(notePorts.outbox.recorded).toEqual([]);
  });

  it('answers CHANNEL_NOT_FOUND for a channel the business does not have', async () => {
    await expect(addNote(ports(), b1, { tokenUuid: 'tok-1' }, { uuid: 'conv-ana', channel: 'nope' }, 'n')).rejects.toMatchObject({
      code: 'CHANNEL_NOT_FOUND',
      message: "No channel with public key 'nope' in this business.",
    });
  });

  it('answers PHONE_NUMBER_AMBIGUOUS when two contacts share the phone and no channel tells them apart', async () => {
    lookup.addContactWithConversation({ _id: 'ana-2', business_id: 'b1', channel_id: 'ch2', phone: '+52 55 1234 5678' });
    await expect(addNote(ports(), b1, { tokenUuid: 'tok-1' }, { phone: '+52 55 1234 5678' }, 'n')).rejects.toMatchObject({ code: 'PHONE_NUMBER_AMBIGUOUS' });
    expect((await addNote(ports(), b1, { tokenUuid: 'tok-1' }, { phone: '+52 55 1234 5678', channel: 'support' }, 'n')).conversation).toEqual({ uuid: 'conv-ana-2' });
  });

  it('answers INVALID_REQUEST for a reference with no member', async () => {
    await expect(addNote(ports(), b1, { tokenUuid: 'tok-1' }, {}, 'n')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'conversation: one of uuid, chat_user_id, username or phone is required.',
    });
  });
});
