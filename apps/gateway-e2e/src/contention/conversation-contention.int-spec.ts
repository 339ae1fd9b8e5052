import { randomUUID } from 'node:crypto';
import { contactSeed, storedCollection } from '@cmsg/testing';
import { KafkaTopicProbe, type ProbedMessage } from '@cmsg/testing/kafka';
import { type ContendedBusiness, WRITERS, createContendedBusiness, statusCounts, tally } from './contention-fixtures';

/**
 * Many writers changing one conversation at the same moment, through the public API: nothing they
 * imply is lost, nothing happens twice, one broadcast per real change, and the conversation ends
 * exactly as the writes imply.
 */
describe('concurrent writers on one conversation', () => {
  let business: ContendedBusiness;
  let probe: KafkaTopicProbe;
  const tags = Array.from({ length: WRITERS }, (_, index) => ({ uuid: randomUUID(), name: `tag-${index}`, color: '' }));
  const mailboxes = Array.from({ length: 5 }, (_, index) => ({ uuid: randomUUID(), name: `box-${index}` }));
  const ai = randomUUID();
  const conversations = { tags: randomUUID(), oneTag: randomUUID(), mailbox: randomUUID(), mixedMailboxes: randomUUID(), owner: randomUUID(), status: randomUUID(), notes: randomUUID() };

  beforeAll(async () => {
    business = await createContendedBusiness((seed) => {
      seed.tags = tags;
      seed.mailbox_categories = [{ uuid: randomUUID(), name: 'Sales', mailboxes }];
      seed.ai_employees = [{ uuid: ai, name: 'Max', model: 'gpt-test', wallet_tokens: 100 }];
      for (const uuid of Object.values(conversations)) contactSeed(seed, { conversation: { uuid, inbox_status: 'resolved' } });
    });
    probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
  });

  afterAll(() => probe.stop());

  const reference = (uuid: string) => ({ uuid });
  const stored = (uuid: string) => storedCollection('conversations').findOne({ _id: uuid });
  const eventsOf = (conversationUuid: string, type: string): ProbedMessage[] =>
    probe.matching((message) => message.key === conversationUuid && message.value.type === type);
  /** Waits for at least `count` events of the type, then a while longer for any that should not come. */
  const settledEvents = async (conversationUuid: string, type: string, count: number) => {
    await probe.waitFor(() => eventsOf(conversationUuid, type).length >= count, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return eventsOf(conversationUuid, type);
  };
  const everyWriter = <Result>(write: (client: ContendedBusiness['writers'][number], index: number) => Promise<Result>) => Promise.all(business.writers.map(write));

  it('tags: 50 concurrent adds of distinct tags, then 25 concurrent removes: 25 left, one event per tag change', async () => {
    const added = await everyWriter((client, index) => client.post('/conversation/tags', { conversation: reference(conversations.tags), tags: [{ uuid: tags[index]!.uuid }] }));
    expect(statusCounts(added)).toEqual({ 200: WRITERS });
    const removedTags = tags.slice(0, WRITERS / 2);
    const removed = await Promise.all(
      removedTags.map((tag, index) => business.writers[index]!.delete('/conversation/tags', { conversation: reference(conversations.tags), tags: [{ uuid: tag.uuid }] })),
    );
    expect(statusCounts(removed)).toEqual({ 200: WRITERS / 2 });

    const kept = tags.slice(WRITERS / 2).map((tag) => tag.uuid);
    const final = (await stored(conversations.tags))!.tag_ids as string[];
    expect([...final].sort()).toEqual([...kept].sort());
    const events = await settledEvents(conversations.tags, 'conversation.tags_changed', WRITERS + WRITERS / 2);
    const addedEvents = events.flatMap((event) => event.value.data.added as string[]);
    const removedEvents = events.flatMap((event) => event.value.data.removed as string[]);
    expect(events.every((event) => event.value.data.added.length + event.value.data.removed.length === 1)).toBe(true);
    const onConversation = tally('tags-add-50-remove-25', WRITERS, kept, final);
    const addEvents = tally('tags-add-events', WRITERS, tags.map((tag) => tag.uuid), addedEvents);
    const removeEvents = tally('tags-remove-events', WRITERS / 2, removedTags.map((tag) => tag.uuid), removedEvents);
    for (const result of [onConversation, addEvents, removeEvents]) expect(result).toMatchObject({ lost: 0, twice: 0 });
  });

  it('tags: 50 identical adds of one tag make one change and one event; the others are 409 TAG_ALREADY_ASSIGNED', async () => {
    const responses = await everyWriter((client) => client.post('/conversation/tags', { conversation: reference(conversations.oneTag), tags: [{ uuid: tags[0]!.uuid }] }));
    expect(statusCounts(responses)).toEqual({ 200: 1, 409: WRITERS - 1 });
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'TAG_ALREADY_ASSIGNED')).toBe(true);
    expect((await stored(conversations.oneTag))!.tag_ids).toEqual([tags[0]!.uuid]);
    const events = await settledEvents(conversations.oneTag, 'conversation.tags_changed', 1);
    const result = tally('tags-identical-add', WRITERS, [tags[0]!.uuid], events.flatMap((event) => event.value.data.added as string[]));
    expect(result).toMatchObject({ lost: 0, twice: 0 });
  });

  it('mailbox: 50 moves to one mailbox make one change and one event; the others are 409 MAILBOX_ALREADY_ASSIGNED', async () => {
    const target = mailboxes[0]!;
    const responses = await everyWriter((client) => client.post('/conversation/mailbox', { conversation: reference(conversations.mailbox), mailbox: { uuid: target.uuid } }));
    expect(statusCounts(responses)).toEqual({ 200: 1, 409: WRITERS - 1 });
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'MAILBOX_ALREADY_ASSIGNED')).toBe(true);
    expect((await stored(conversations.mailbox))!.mailbox_id).toBe(target.uuid);
    const events = await settledEvents(conversations.mailbox, 'conversation.mailbox_changed', 1);
    expect(tally('mailbox-identical-move', WRITERS, [`null>${target.uuid}`], events.map((event) => `${event.value.data.from}>${event.value.data.to}`))).toMatchObject({
      lost: 0,
      twice: 0,
    });
  });

  it('mailbox: 50 moves among five mailboxes: each real move is one event, and the moves chain to the final mailbox', async () => {
    const responses = await everyWriter((client, index) =>
      client.post('/conversation/mailbox', { conversation: reference(conversations.mixedMailboxes), mailbox: { uuid: mailboxes[index % mailboxes.length]!.uuid } }),
    );
    const moved = responses.filter((response) => response.status === 200).length;
    expect(moved + responses.filter((response) => response.status === 409).length).toBe(WRITERS);
    const final = (await stored(conversations.mixedMailboxes))!.mailbox_id as string;
    const events = await settledEvents(conversations.mixedMailboxes, 'conversation.mailbox_changed', moved);
    const moves = events.map((event) => ({ from: event.value.data.from as string | null, to: event.value.data.to as string }));
    expect(moves.every((move) => move.from !== move.to)).toBe(true);
    // A chain from "no mailbox" to the final one: every mailbox is left as often as it is entered,
    // but the start (left once more) and the end (entered once more).
    const balance = new Map<string | null, number>([[null, -1]]);
    balance.set(final, (balance.get(final) ?? 0) + 1);
    for (const move of moves) {
      balance.set(move.from, (balance.get(move.from) ?? 0) + 1);
      balance.set(move.to, (balance.get(move.to) ?? 0) - 1);
    }
    expect([...balance.values()].every((count) => count === 0)).toBe(true);
    // Moves answered 200 are the real changes: one event each.
    const nth = (count: number) => Array.from({ length: count }, (_, index) => `move ${index + 1}`);
    expect(tally('mailbox-mixed-moves', WRITERS, nth(moved), nth(events.length))).toMatchObject({ lost: 0, twice: 0 });
  });

  it('owner: 50 assignments of one AI employee make one change; then 50 unassignments make one change', async () => {
    const assigned = await everyWriter((client) => client.post('/conversation/ai-employee', { conversation: reference(conversations.owner), ai_employee: { uuid: ai } }));
    expect(statusCounts(assigned)).toEqual({ 200: 1, 409: WRITERS - 1 });
    expect(assigned.filter((response) => response.status === 409).every((response) => response.body.code === 'AI_EMPLOYEE_ALREADY_ASSIGNED')).toBe(true);
    expect((await stored(conversations.owner))!.ai_employee_id).toBe(ai);

    const unassigned = await everyWriter((client) => client.post('/conversation/unassign-ai', { conversation: reference(conversations.owner) }));
    expect(statusCounts(unassigned)).toEqual({ 200: WRITERS });
    expect((await stored(conversations.owner))!.ai_employee_id).toBeNull();
    const events = await settledEvents(conversations.owner, 'conversation.assignment_changed', 2);
    const result = tally('owner-assign-then-unassign', WRITERS * 2, [`null>${ai}`, `${ai}>null`], events.map((event) => `${event.value.data.from}>${event.value.data.to}`));
    expect(result).toMatchObject({ lost: 0, twice: 0 });
  });

  it('inbox status: 50 pendings make one change (the others 200, no change); 50 resolves make one; one timeline event and one broadcast each', async () => {
    const pending = await everyWriter((client) => client.post('/conversation/pending', { conversation: reference(conversations.status) }));
    expect(statusCounts(pending)).toEqual({ 200: WRITERS });
    const resolved = await everyWriter((client) => client.post('/conversation/resolve', { conversation: reference(conversations.status) }));
    expect(statusCounts(resolved)).toEqual({ 200: WRITERS });
    expect((await stored(conversations.status))!.inbox_status).toBe('resolved');
    const events = await settledEvents(conversations.status, 'conversation.inbox_status_changed', 2);
    const timeline = await storedCollection('timeline_events').find({ conversation_id: conversations.status, kind: 'event', event_type: 'inbox_status_changed' }).toArray();
    const implied = ['resolved>pending', 'pending>resolved'];
    const broadcasts = tally('inbox-status-broadcasts', WRITERS * 2, implied, events.map((event) => `${event.value.data.from}>${event.value.data.to}`));
    const entries = tally('inbox-status-timeline', WRITERS * 2, implied, timeline.map((entry) => `${entry.data.from}>${entry.data.to}`));
    for (const result of [broadcasts, entries]) expect(result).toMatchObject({ lost: 0, twice: 0 });
  });

  it('notes: 50 concurrent notes are all stored, each once', async () => {
    const texts = business.writers.map((_, index) => `note ${index} ${randomUUID()}`);
    const responses = await everyWriter((client, index) => client.post('/conversation/notes', { conversation: reference(conversations.notes), note: texts[index] }));
    expect(statusCounts(responses)).toEqual({ 201: WRITERS });
    const notes = await storedCollection('timeline_events').find({ conversation_id: conversations.notes, kind: 'note' }).toArray();
    expect(tally('notes', WRITERS, texts, notes.map((note) => note.body as string))).toMatchObject({ lost: 0, twice: 0 });
    expect(new Set(responses.map((response) => response.body.note.uuid))).toEqual(new Set(notes.map((note) => note._id)));
  });
});
