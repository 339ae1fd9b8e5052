import type { BusinessScope, ContactEntity } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { ContactPorts } from '../contacts/contact-ports';
import type { StartConversationPorts, StartedMessage } from './start-conversation-ports';

/** Contacts of one channel 'main' (id ch1) held in memory, each with its conversation `conv-<contact>`. */
export function inMemoryContactPorts(): ContactPorts & { rows: ContactEntity[] } {
  const rows: ContactEntity[] = [];
  const conversations = new Map<string, string>();
  const channel = { id: 'ch1', publicKey: 'main' };
  const mine = (scope: BusinessScope) => rows.filter((row) => row.business_id === scope.businessId);
  let counter = 0;
  return {
    rows,
    contacts: {
      findById: async (scope, id) => mine(scope).find((row) => row._id === id) ?? null,
      findByExternalId: async (scope, externalId) => mine(scope).find((row) => row.external_id === externalId) ?? null,
      findOldestOnChannel: async (scope, channelId, key) =>
        mine(scope).find((row) => row.channel_id === channelId && ('phone_key' in key ? row.phone_key === key.phone_key : row.chat_user_id === key.chat_user_id)) ?? null,
      insertNew: async (scope, contact) => {
        if (rows.some((row) => row._id === contact._id)) return 'id_taken';
        rows.push({ ...contact, business_id: scope.businessId, revision: 0, is_tester: false } as unknown as ContactEntity);
        return 'inserted';
      },
      updateAtRevision: async (scope, id, _revision, change) => {
        const row = mine(scope).find((candidate) => candidate._id === id);
        if (!row) return { outcome: 'stale' };
        Object.assign(row, change.set);
        return { outcome: 'updated', contact: row };
      },
      searchPage: async () => [],
      listPage: async () => [],
    },
    attributeDefinitions: { list: async () => [], define: async () => 'defined', remove: async () => true },
    channels: {
      byPublicKey: async (_scope, key) => (key === channel.publicKey ? channel : null),
      byIds: async (_scope, ids) => (ids.includes(channel.id) ? [channel] : []),
      first: async () => [channel],
    },
    conversations: {
      ensureFor: async (_scope, contact) => {
        if (!conversations.has(contact._id)) conversations.set(contact._id, `conv-${contact._id}`);
        return conversations.get(contact._id)!;
      },
      idsByContactIds: async (_scope, ids) => new Map(ids.filter((id) => conversations.has(id)).map((id) => [id, conversations.get(id)!])),
    },
    events: { recordQuietly: async () => undefined },
    clock: () => new Date('2026-11-29T00:00:00Z'),
    ids: { random: () => `random-${(counter += 1)}`, contactFor: async (_scope, channelId, identity) => `${channelId}:${identity}`, conversationFor: (contactId) => `conv-${contactId}` },
  };
}

/** Records every step in `calls`; `refuse` makes the named step throw its catalog error. */
export function inMemoryStartPorts(known: { aiEmployees: string[]; mailboxes: string[]; tags: string[] }) {
  const calls: string[] = [];
  const refuse = new Map<string, CatalogError>();
  const sent = new Map<string, StartedMessage>();
  const step = (name: string) => {
    calls.push(name);
    const error = refuse.get(name.split(' ')[0]!);
    if (error) throw error;
  };
  const contacts = inMemoryContactPorts();
  const ports: StartConversationPorts = {
    contacts,
    references: {
      aiEmployee: async (_scope, uuid) => {
        if (!known.aiEmployees.includes(uuid)) throw new CatalogError('AI_EMPLOYEE_NOT_FOUND');
      },
      mailbox: async (_scope, uuid) => {
        if (!known.mailboxes.includes(uuid)) throw new CatalogError('MAILBOX_NOT_FOUND');
      },
      tag: async (_scope, uuid) => {
        if (!known.tags.includes(uuid)) throw new CatalogError('TAG_NOT_FOUND');
      },
    },
    sendTemplate: async (_scope, send) => {
      // Exactly once per operation id, as SendMessage is.
      const stored = sent.get(send.operationId);
      if (stored) return stored;
      step(`send ${send.conversationId} ${send.operationId} ${send.author.type}:${send.author.uuid} ${send.template.template.name}`);
      const message = { uuid: `msg-${sent.size + 1}`, status: 'sent', created_at: '2026-11-29T00:00:00.000Z' };
      sent.set(send.operationId, message);
      return message;
    },
    assignAiEmployee: async (_scope, conversationId, uuid, actor) => step(`ai ${conversationId} ${uuid} ${actor.uuid}`),
    assignMailbox: async (_scope, conversationId, uuid, actor) => step(`mailbox ${conversationId} ${uuid} ${actor.uuid}`),
    addTags: async (_scope, conversationId, uuids, actor) => step(`tags ${conversationId} ${uuids.join(',')} ${actor.uuid}`),
    addNote: async (_scope, conversationId, note, tokenUuid, operationId) => step(`note ${conversationId} ${note} ${tokenUuid} ${operationId}`),
  };
  return { ports, calls, refuse, contacts: contacts.rows, sent };
}
