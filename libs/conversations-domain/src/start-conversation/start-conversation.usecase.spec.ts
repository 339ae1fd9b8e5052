import { businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { inMemoryStartPorts } from './in-memory-start-ports';
import { type StartConversationCommand, startConversation } from './start-conversation.usecase';

const scope = businessScope('b1');
const template = { template: { name: 'order_update', language: 'en' }, variables: [], button_parameters: [] };

function command(overrides: Partial<StartConversationCommand> = {}): StartConversationCommand {
  return { contact: { phone: '+52 1 55 1234 5678', first_name: 'Ana' }, template, tags: [], tokenUuid: 'tok1', operationId: 'start:tok1:key1', ...overrides };
}

describe('startConversation', () => {
  let start: ReturnType<typeof inMemoryStartPorts>;
  beforeEach(() => {
    start = inMemoryStartPorts({ aiEmployees: ['ai1'], mailboxes: ['mb1'], tags: ['t1', 't2'] });
  });

  it('creates the contact from a new phone, sends the template as the token and answers the three uuids', async () => {
    const result = await startConversation(start.ports, scope, command());
    const contactId = 'ch1:phone:5215512345678';
    expect(result).toEqual({ conversation: { uuid: `conv-${contactId}` }, contact: { uuid: contactId, created: true }, message: { uuid: 'msg-1', status: 'sent', created_at: '2026-11-29T00:00:00.000Z' } });
    expect(start.contacts).toHaveLength(1);
    expect(start.contacts[0]).toMatchObject({ first_name: 'Ana', phone_key: '5215512345678' });
    expect(start.calls).toEqual([`send conv-${contactId} start:tok1:key1:send api_token:tok1 order_update`]);
  });

  it('reuses the contact a uuid names, created false', async () => {
    const first = await startConversation(start.ports, scope, command());
    const again = await startConversation(start.ports, scope, command({ contact: { uuid: first.contact.uuid }, operationId: 'start:tok1:key2' }));
    expect(again.contact).toEqual({ uuid: first.contact.uuid, created: false });
    expect(again.conversation).toEqual(first.conversation);
    expect(start.contacts).toHaveLength(1);
  });

  it("answers CONTACT_NOT_FOUND for an unknown uuid and another business's contact, sending nothing", async () => {
    const theirs = await startConversation(start.ports, businessScope('b2'), command());
    start.calls.length = 0;
    await expect(startConversation(start.ports, scope, command({ contact: { uuid: theirs.contact.uuid } }))).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(startConversation(start.ports, scope, command({ contact: { uuid: 'nobody' } }))).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    expect(start.calls).toEqual([]);
  });

  it('applies the AI employee, the mailbox, the tags and the note after the send, in that order', async () => {
    const result = await startConversation(start.ports, scope, command({ aiEmployee: 'ai1', mailbox: 'mb1', tags: ['t1', 't2'], note: 'VIP' }));
    const conversation = result.conversation.uuid;
    expect(start.calls).toEqual([
      `send ${conversation} start:tok1:key1:send api_token:tok1 order_update`,
      `ai ${conversation} ai1 tok1`,
      `mailbox ${conversation} mb1 tok1`,
      `tags ${conversation} t1,t2 tok1`,
      `note ${conversation} VIP tok1 start:tok1:key1:note`,
    ]);
  });

  it.each([
    ['AI_EMPLOYEE_NOT_FOUND', { aiEmployee: 'ai9' }],
    ['MAILBOX_NOT_FOUND', { mailbox: 'mb9' }],
    ['TAG_NOT_FOUND', { tags: ['t1', 't9'] }],
  ])('refuses with %s before writing the contact or sending anything', async (code, references) => {
    await expect(startConversation(start.ports, scope, command({ ...references, note: 'x' }))).rejects.toMatchObject({ code });
    expect(start.contacts).toEqual([]);
    expect(start.calls).toEqual([]);
  });

  it('applies nothing after a refused send, and keeps the contact it upserted', async () => {
    start.refuse.set('send', new CatalogError('CONTACT_OPTED_OUT'));
    await expect(startConversation(start.ports, scope, command({ mailbox: 'mb1', tags: ['t1'], note: 'x' }))).rejects.toMatchObject({ code: 'CONTACT_OPTED_OUT' });
    expect(start.calls).toHaveLength(1);
    expect(start.contacts).toHaveLength(1);
  });

  it('sends once when a request is retried after a crash in its assignments, then applies the rest', async () => {
    start.refuse.set('mailbox', new CatalogError('UPDATE_FAILED'));
    await expect(startConversation(start.ports, scope, command({ mailbox: 'mb1', note: 'x' }))).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
    start.refuse.clear();
    const retried = await startConversation(start.ports, scope, command({ mailbox: 'mb1', note: 'x' }));
    expect(retried.message).toMatchObject({ uuid: 'msg-1', status: 'sent' });
    expect(start.calls.filter((call) => call.startsWith('send'))).toHaveLength(1);
    expect(start.calls.filter((call) => call.startsWith('note'))).toHaveLength(1);
  });

  it('refuses an empty operation id', async () => {
    await expect(startConversation(start.ports, scope, command({ operationId: ' ' }))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
