import { storedCollection } from '@cmsg/testing';
import { type ActionsBusiness, cloudApi, createActionsBusiness, disconnectStackDatabase, openConversation, phoneOf, runGroup } from '../action-groups/action-group-fixtures';
import { SYSTEM, type StoredEvent, envelopeOf, eventRowsOf, outboxOf, settledEvents, strictlyIncreasing, tokenAuthor, typesOf } from './event-fixtures';

jest.setTimeout(240_000);

/**
 * The events of a conversation's own changes (CONTRACT 9.2), from the individual endpoints and from
 * action groups: each change recorded once, with its data, a sequence that increases in the order
 * the changes were made, and (for owner, status, mailbox and tags) its timeline row under the same id.
 */
describe('events of conversation changes', () => {
  let business: ActionsBusiness;
  const conversations = { rest: '', group: '', escalated: '' };

  beforeAll(async () => {
    business = await createActionsBusiness((seed) => {
      conversations.rest = openConversation(seed, { inbox_status: 'resolved' });
      conversations.group = openConversation(seed, { inbox_status: 'resolved' });
      conversations.escalated = openConversation(seed, { inbox_status: 'resolved' });
      // Every event of the business goes to this endpoint (nobody listens there: the deliveries stay queued).
      seed.webhooks = [{ url: 'http://127.0.0.1:9/receiver', secret: 'a-secret-of-sixteen-chars', events: ['*'] }];
    }, 2);
    await cloudApi().addRules({ match: { to: phoneOf(business.seed, conversations.escalated) }, status: 500, error: { message: 'Service temporarily unavailable', code: 2 } });
  });

  afterAll(() => disconnectStackDatabase());

  /** Every event of the list that has a timeline row has it under its own id, with the same data and author. */
  async function expectTimelineRows(conversation: string, events: StoredEvent[], eventTypes: Record<string, string>): Promise<void> {
    const rows = await eventRowsOf(conversation);
    const withRows = events.filter((event) => eventTypes[event.type] !== undefined);
    expect(rows.map((row) => row._id).sort()).toEqual(expect.arrayContaining(withRows.map((event) => event._id).sort()));
    for (const event of withRows) {
      const row = rows.find((candidate) => candidate._id === event._id);
      expect({ type: event.type, row }).toMatchObject({ type: event.type, row: { kind: 'event', event_type: eventTypes[event.type], data: event.data, business_id: business.businessId } });
    }
  }

  const CHANGE_ROWS = {
    'conversation.tags_changed': 'tags_changed',
    'conversation.mailbox_changed': 'mailbox_changed',
    'conversation.assignment_changed': 'assignment_changed',
    'conversation.inbox_status_changed': 'inbox_status_changed',
  };

  it('records each change made through the endpoints once, in order, with its data and timeline row', async () => {
    const { api, catalog } = business;
    const reference = { uuid: conversations.rest };
    const calls: [string, () => Promise<{ status: number; body: any }>][] = [
      ['add tag', () => api.post('/conversation/tags', { conversation: reference, tags: [{ uuid: catalog.tags.vip }] })],
      ['mailbox North', () => api.post('/conversation/mailbox', { conversation: reference, mailbox: { uuid: catalog.mailboxes.salesNorth } })],
      ['mailbox South', () => api.post('/conversation/mailbox', { conversation: reference, mailbox: { uuid: catalog.mailboxes.salesSouth } })],
      ['assign Ana', () => api.post('/conversation/ai-employee', { conversation: reference, ai_employee: { uuid: catalog.ai.ana } })],
      ['pending', () => api.post('/conversation/pending', { conversation: reference })],
      ['resolve', () => api.post('/conversation/resolve', { conversation: reference })],
      ['remove tag', () => api.delete('/conversation/tags', { conversation: reference, tags: [{ uuid: catalog.tags.vip }] })],
      ['hand to human', () => api.post('/conversation/human', { conversation: reference })],
      ['note', () => api.post('/conversation/notes', { conversation: reference, note: 'Prefers mornings' })],
      // Changes nothing: no event.
      ['pending again', () => api.post('/conversation/pending', { conversation: reference })],
    ];
    let noteUuid = '';
    for (const [what, call] of calls) {
      const response = await call();
      expect({ what, status: response.status }).toEqual({ what, status: what === 'note' ? 201 : 200 });
      if (what === 'note') noteUuid = response.body.note.uuid;
    }

    const events = await settledEvents(conversations.rest, 10);
    expect(typesOf(events)).toEqual([
      'conversation.tags_changed',
      'conversation.mailbox_changed',
      'conversation.mailbox_changed',
      'conversation.assignment_changed',
      'conversation.inbox_status_changed',
      'conversation.inbox_status_changed',
      'conversation.tags_changed',
      'conversation.assignment_changed',
      'conversation.inbox_status_changed',
      'note.created',
    ]);
    // Made one after another: recorded in that order.
    expect(strictlyIncreasing([...events].sort((a, b) => a.created_at.getTime() - b.created_at.getTime()))).toBe(true);
    const north = { type: 'mailbox', uuid: catalog.mailboxes.salesNorth, name: 'North' };
    const south = { type: 'mailbox', uuid: catalog.mailboxes.salesSouth, name: 'South' };
    const ana = { type: 'ai_employee', uuid: catalog.ai.ana, name: 'Ana' };
    const humans = { type: 'human', uuid: null, name: null };
    expect(events.map((event) => event.data)).toEqual([
      { added: [catalog.tags.vip], removed: [] },
      { from: null, to: north },
      { from: north, to: south },
      { from: humans, to: ana },
      { from: 'resolved', to: 'pending', reason: 'marked_pending' },
      { from: 'pending', to: 'resolved', reason: null },
      { added: [], removed: [catalog.tags.vip] },
      { from: ana, to: humans },
      { from: 'resolved', to: 'pending', reason: 'human_handoff' },
      { uuid: noteUuid, kind: 'note', created_at: expect.any(String), author: tokenAuthor(business.tokenUuid), note: 'Prefers mornings' },
    ]);
    for (const event of events) expect(event).toMatchObject({ business_id: business.businessId, business_slug: business.slug, conversation_id: conversations.rest });

    await expectTimelineRows(conversations.rest, events, CHANGE_ROWS);
    const rows = await eventRowsOf(conversations.rest);
    expect(rows).toHaveLength(9);
    expect(rows.every((row) => JSON.stringify(row['author']) === JSON.stringify(tokenAuthor(business.tokenUuid)))).toBe(true);
    expect(await outboxOf('conversations', conversations.rest)).toEqual([]);
    expect(await outboxOf('timeline_events', noteUuid)).toEqual([]);

    // GET /conversation/timeline shows the same rows: the event items' data are the events', the note item is note.created's data.
    const timeline = await business.clients[0]!.get('/conversation/timeline', { conversation_uuid: conversations.rest, kinds: 'event,note' });
    expect(timeline.status).toBe(200);
    const items = timeline.body.items as { uuid: string; kind: string; data?: unknown }[];
    for (const event of events) {
      const item = items.find((candidate) => candidate.uuid === (event.type === 'note.created' ? noteUuid : event._id));
      expect({ type: event.type, item: event.type === 'note.created' ? item : item?.data }).toEqual({ type: event.type, item: event.data });
    }
  });

  it('records the changes an action group makes, and its finish, in the order the actions ran', async () => {
    const { catalog } = business;
    const group = await runGroup(business.clients[0]!, {
      conversation: { uuid: conversations.group },
      actions: [
        { type: 'assign_label', tags: [{ name: 'VIP' }] },
        { type: 'assign_mailbox', mailbox: { uuid: catalog.mailboxes.support } },
        { type: 'context_note', note: 'From the group' },
        { type: 'mark_pending' },
        { type: 'mark_resolved' },
        { type: 'assign_ai_employee', ai_employee: { name: 'Ana' } },
        { type: 'ai_assistance', ai_employee: { name: 'Ana' }, prompt: 'Summarize' },
        { type: 'unassign_ai' },
        { type: 'remove_label', tags: [{ uuid: catalog.tags.vip }] },
      ],
      stop_on_error: false,
      escalate_on_error: false,
    });
    expect(group.status).toBe('succeeded');
    const token = (await storedCollection('action_groups').findOne({ _id: group._id }))!['token_uuid'] as string;

    const events = await settledEvents(conversations.group, 10);
    expect(typesOf(events)).toEqual([
      'conversation.tags_changed',
      'conversation.mailbox_changed',
      'note.created',
      'conversation.inbox_status_changed',
      'conversation.inbox_status_changed',
      'conversation.assignment_changed',
      'note.created',
      'conversation.assignment_changed',
      'conversation.tags_changed',
      'action_group.finished',
    ]);
    const notes = events.filter((event) => event.type === 'note.created').map((event) => event.data);
    expect(notes).toEqual([
      expect.objectContaining({ kind: 'note', note: 'From the group', author: tokenAuthor(token) }),
      expect.objectContaining({ kind: 'note', note: 'AI(gpt-ana): re: Summarize', author: tokenAuthor(token) }),
    ]);
    const finished = events.at(-1)!;
    expect(finished.data).toMatchObject({ action_group: { uuid: group._id, status: 'succeeded', escalated: false }, conversation: { uuid: conversations.group } });
    expect(finished.data['action_group'].actions).toHaveLength(9);
    await expectTimelineRows(conversations.group, events, CHANGE_ROWS);
    expect(await eventRowsOf(conversations.group)).toHaveLength(7);
    expect(await outboxOf('action_groups', group._id)).toEqual([]);
  });

  it('records a failing action, the escalation and the finish of its group; the webhooks carry the same event ids', async () => {
    const group = await runGroup(business.clients[1]!, {
      conversation: { uuid: conversations.escalated },
      actions: [{ type: 'send_message', text: 'Will not arrive' }],
      stop_on_error: true,
      escalate_on_error: true,
    });
    expect([group.status, group.escalated]).toEqual(['failed', true]);

    const events = await settledEvents(conversations.escalated, 4);
    expect(typesOf(events)).toEqual(['message.status_updated', 'action.failed', 'conversation.inbox_status_changed', 'action_group.finished']);
    const [statusUpdated, failed, escalated, finished] = events as [StoredEvent, StoredEvent, StoredEvent, StoredEvent];
    expect(statusUpdated.data).toMatchObject({ kind: 'message', direction: 'outbound', body: 'Will not arrive', status: 'failed', error: { code: 'SEND_FAILED' } });
    expect(failed.data).toEqual({
      action_group: { uuid: group._id },
      conversation: { uuid: conversations.escalated },
      action: { index: 0, type: 'send_message', error: { code: 'SEND_FAILED', message: expect.any(String) } },
    });
    expect(escalated.data).toEqual({ from: 'resolved', to: 'pending', reason: 'action_set_failed' });
    expect(finished.data).toMatchObject({ action_group: { uuid: group._id, status: 'failed', escalated: true } });

    const rows = await eventRowsOf(conversations.escalated);
    expect(rows.map((row) => [row['event_type'], row['data'], row['author']])).toEqual(
      expect.arrayContaining([
        ['inbox_status_changed', escalated.data, SYSTEM],
        ['action_group_escalated', { action_group_uuid: group._id, reason: 'SEND_FAILED' }, SYSTEM],
      ]),
    );
    expect(rows).toHaveLength(2);
    // Each event is fanned out once to the endpoint subscribed to everything, the delivery carrying its envelope, sequence included.
    const deliveries = await storedCollection('webhook_deliveries').find({ business_id: business.businessId }).toArray();
    for (const event of events) {
      const ofEvent = deliveries.filter((delivery) => delivery['event_id'] === event._id);
      expect({ type: event.type, deliveries: ofEvent.length }).toEqual({ type: event.type, deliveries: 1 });
      expect(JSON.parse(String(ofEvent[0]!['body']))).toEqual(envelopeOf(event));
    }
  });
});
