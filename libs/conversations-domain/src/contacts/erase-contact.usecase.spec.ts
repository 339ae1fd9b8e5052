import { type ContactEntity, type ErasableFile, businessScope } from '@cmsg/dal';
import { contactErasedEventId } from '../conversation/operation-ids';
import { requestContactErasure, runDueErasures, runErasurePass } from './erase-contact.usecase';
import { type ErasureWorld, inMemoryErasurePorts } from './in-memory-erasure-ports';

const scope = businessScope('b1');
const contentId = (id: string) => id as unknown as ErasableFile['content_id'];

function world(): ErasureWorld {
  const contact = (business_id: string, _id: string) => ({ _id, business_id, channel_id: 'ch1', phone: '+5215512345678' }) as unknown as ContactEntity;
  const of = (business_id: string, conversation_id: string) => ({ business_id, conversation_id });
  return {
    contacts: [contact('b1', 'ana'), contact('b2', 'theirs')],
    conversations: [
      { _id: 'conv-ana', business_id: 'b1', contact_id: 'ana', event_sequence: 7 },
      { _id: 'conv-theirs', business_id: 'b2', contact_id: 'theirs', event_sequence: 2 },
    ],
    messages: [
      { _id: 'm1', ...of('b1', 'conv-ana'), media_file: 'f1' },
      { _id: 'm2', ...of('b1', 'conv-ana') },
      { _id: 'm3', ...of('b2', 'conv-theirs'), media_file: 'f2' },
    ],
    files: [
      { _id: 'f1', business_id: 'b1', content_id: contentId('c1') },
      { _id: 'f2', business_id: 'b2', content_id: contentId('c2') },
    ],
    contents: new Set(['c1', 'c2']),
    records: [
      { collection: 'timeline_events', _id: 'note1', ...of('b1', 'conv-ana') },
      { collection: 'scheduled_messages', _id: 's1', ...of('b1', 'conv-ana') },
      { collection: 'timeline_events', _id: 'note2', ...of('b2', 'conv-theirs') },
    ],
    events: [
      { _id: 'e1', ...of('b1', 'conv-ana') },
      { _id: 'e2', ...of('b2', 'conv-theirs') },
    ],
    erasures: [],
    recorded: [],
  };
}

describe('contact erasure', () => {
  let data: ErasureWorld;
  const now = { at: new Date('2026-11-29T10:00:00Z') };
  const later = (ms: number) => {
    now.at = new Date(now.at.getTime() + ms);
  };
  beforeEach(() => {
    data = world();
    now.at = new Date('2026-11-29T10:00:00Z');
  });

  it('answers the contact and its conversation, records the erasure and deletes the contact at once', async () => {
    const ports = inMemoryErasurePorts(data, now);
    await expect(requestContactErasure(ports, scope, 'ana')).resolves.toEqual({ contactId: 'ana', conversationId: 'conv-ana' });
    expect(data.contacts.map((contact) => contact._id)).toEqual(['theirs']);
    expect(data.erasures).toEqual([expect.objectContaining({ _id: 'ana', business_id: 'b1', conversation_id: 'conv-ana', state: 'erasing', due_at: now.at, event_sequence: null })]);
  });

  it("answers CONTACT_NOT_FOUND for an unknown contact and another business's, erasing nothing", async () => {
    const ports = inMemoryErasurePorts(data, now);
    await expect(requestContactErasure(ports, scope, 'nobody')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(requestContactErasure(ports, scope, 'theirs')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    expect(data.erasures).toEqual([]);
    expect(data.contacts).toHaveLength(2);
  });

  it('answers a repeat while it runs the same, and CONTACT_NOT_FOUND once erased', async () => {
    const ports = inMemoryErasurePorts(data, now);
    await requestContactErasure(ports, scope, 'ana');
    await expect(requestContactErasure(ports, scope, 'ana')).resolves.toEqual({ contactId: 'ana', conversationId: 'conv-ana' });
    expect(data.erasures).toHaveLength(1);
    await runErasurePass(ports, data.erasures[0]!);
    later(3_000);
    await runDueErasures(ports, 10);
    await expect(requestContactErasure(ports, scope, 'ana')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
  });

  it('answers a repeat the same when the first records the erasure and deletes the contact between its two reads', async () => {
    const ports = inMemoryErasurePorts(data, now);
    const findErasure = ports.erasures.findById.bind(ports.erasures);
    let first: Promise<unknown> | undefined;
    // The repeat reads no erasure yet; the first request then runs whole before the repeat reads the contact.
    ports.erasures.findById = async (...args) => {
      const found = await findErasure(...args);
      if (!first) {
        first = requestContactErasure({ ...ports, erasures: { ...ports.erasures, findById: findErasure } }, scope, 'ana');
        await first;
      }
      return found;
    };

    await expect(requestContactErasure(ports, scope, 'ana')).resolves.toEqual({ contactId: 'ana', conversationId: 'conv-ana' });
    await expect(first).resolves.toEqual({ contactId: 'ana', conversationId: 'conv-ana' });
    expect(data.erasures).toHaveLength(1);
  });

  it("deletes the conversation and everything of it, media contents included, and nothing of another conversation's", async () => {
    const ports = inMemoryErasurePorts(data, now);
    await requestContactErasure(ports, scope, 'ana');
    await expect(runErasurePass(ports, data.erasures[0]!)).resolves.toBe('settling');
    expect(data.conversations.map((conversation) => conversation._id)).toEqual(['conv-theirs']);
    expect(data.messages.map((message) => message._id)).toEqual(['m3']);
    expect(data.files.map((file) => file._id)).toEqual(['f2']);
    expect([...data.contents]).toEqual(['c2']);
    expect(data.records.map((record) => record._id)).toEqual(['note2']);
    expect(data.events.map((event) => event._id)).toEqual(['e2']);
    // contact.erased waits for the settling pass.
    expect(data.recorded).toEqual([]);
    expect(data.erasures[0]).toMatchObject({ state: 'settling', event_sequence: 8, due_at: new Date(now.at.getTime() + 3_000) });
  });

  it('deletes again in the settling pass what a writer in flight wrote after the first, then records contact.erased once, after every event', async () => {
    const ports = inMemoryErasurePorts(data, now);
    await requestContactErasure(ports, scope, 'ana');
    await runErasurePass(ports, data.erasures[0]!);
    data.events.push({ _id: 'late-event', business_id: 'b1', conversation_id: 'conv-ana' });
    data.messages.push({ _id: 'late-message', business_id: 'b1', conversation_id: 'conv-ana' });
    // Not due yet: the settling pass waits.
    await expect(runDueErasures(ports, 10)).resolves.toBe(0);
    later(3_000);
    await expect(runDueErasures(ports, 10)).resolves.toBe(1);
    expect(data.events.map((event) => event._id)).toEqual(['e2']);
    expect(data.messages.map((message) => message._id)).toEqual(['m3']);
    const erasedId = contactErasedEventId('b1', 'ana');
    expect(data.recorded).toEqual([
      {
        collection: 'contact_erasures',
        documentId: 'ana',
        entry: expect.objectContaining({ id: erasedId, type: 'contact.erased', conversation_id: 'conv-ana', data: { contact: { uuid: 'ana' } }, sequence: 8 }),
      },
    ]);
    expect(data.erasures[0]).toMatchObject({ state: 'erased', due_at: null, finished_at: now.at, outbox: [expect.objectContaining({ id: erasedId })] });
    // Nothing more is due.
    later(60_000);
    await expect(runDueErasures(ports, 10)).resolves.toBe(0);
    expect(data.recorded).toHaveLength(1);
  });

  it('runs a pass once when two callers race for it', async () => {
    const ports = inMemoryErasurePorts(data, now);
    await requestContactErasure(ports, scope, 'ana');
    const read = { ...data.erasures[0]! };
    const outcomes = await Promise.all([runErasurePass(ports, read), runErasurePass(ports, read)]);
    expect(outcomes.sort()).toEqual(['settling', null].sort());
  });

  it('finishes after a pass a crash cut off, once its lease ran out, keeping the first sequence taken', async () => {
    const failing: { step?: string } = { step: 'deleteConversationRecords' };
    const ports = inMemoryErasurePorts(data, now, failing);
    await requestContactErasure(ports, scope, 'ana');
    await expect(runErasurePass(ports, data.erasures[0]!)).rejects.toThrow('deleteConversationRecords failed');
    expect(data.erasures[0]).toMatchObject({ state: 'erasing', event_sequence: 8 });
    delete failing.step;
    // Leased: nobody takes it before the lease ends.
    await expect(runDueErasures(ports, 10)).resolves.toBe(0);
    later(60_000);
    await expect(runDueErasures(ports, 10)).resolves.toBe(1);
    later(3_000);
    await expect(runDueErasures(ports, 10)).resolves.toBe(1);
    expect(data.messages.map((message) => message._id)).toEqual(['m3']);
    expect(data.recorded.map((recorded) => recorded.entry)).toEqual([expect.objectContaining({ type: 'contact.erased', sequence: 8 })]);
  });

  it('erases a contact without a conversation, recording contact.erased without one', async () => {
    data.conversations = data.conversations.filter((conversation) => conversation.contact_id !== 'ana');
    const ports = inMemoryErasurePorts(data, now);
    await expect(requestContactErasure(ports, scope, 'ana')).resolves.toEqual({ contactId: 'ana', conversationId: null });
    await runErasurePass(ports, data.erasures[0]!);
    later(3_000);
    await runDueErasures(ports, 10);
    expect(data.recorded.map((recorded) => recorded.entry)).toEqual([expect.objectContaining({ type: 'contact.erased', conversation_id: null, data: { contact: { uuid: 'ana' } } })]);
    expect(data.recorded[0]!.entry).not.toHaveProperty('sequence');
  });
});
