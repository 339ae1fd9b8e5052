import type { BusinessScope, ClaimedErasure, ContactEntity, ContactErasureEntity, ErasableFile, OutboxEntry } from '@cmsg/dal';
import type { ContactErasurePorts } from './erase-contact.usecase';

type Keyed = { business_id: string; conversation_id: string };

/** What an erasure reaches, in memory: one business's documents by collection, for unit specs. */
export interface ErasureWorld {
  contacts: ContactEntity[];
  conversations: { _id: string; business_id: string; contact_id: string; event_sequence: number }[];
  messages: (Keyed & { _id: string; media_file?: string })[];
  files: { _id: string; business_id: string; content_id: ErasableFile['content_id'] }[];
  contents: Set<string>;
  records: (Keyed & { collection: string; _id: string })[];
  events: (Keyed & { _id: string })[];
  erasures: ContactErasureEntity[];
  recorded: { collection: string; documentId: string; entry: OutboxEntry & { sequence?: number } }[];
}

const same = (scope: BusinessScope, document: { business_id: string }): boolean => document.business_id === scope.businessId;

/** ContactErasurePorts over an ErasureWorld, with a settable clock and a failure to inject into one step. */
export function inMemoryErasurePorts(world: ErasureWorld, now: { at: Date }, failing: { step?: string } = {}): ContactErasurePorts {
  const fail = (step: string): void => {
    if (failing.step === step) throw new Error(`${step} failed`);
  };
  const erasureOf = (scope: BusinessScope, id: string) => world.erasures.find((erasure) => same(scope, erasure) && erasure._id === id) ?? null;
  const held = (scope: BusinessScope, claimed: ClaimedErasure, state: string) => {
    const erasure = erasureOf(scope, claimed.erasure._id);
    return erasure && erasure.state === state && erasure.due_at?.getTime() === claimed.leaseUntil.getTime() ? erasure : null;
  };
  return {
    contacts: { findById: async (scope, id) => world.contacts.find((contact) => same(scope, contact) && contact._id === id) ?? null },
    conversations: {
      idsByContactIds: async (scope, ids) => new Map(world.conversations.filter((conversation) => same(scope, conversation) && ids.includes(conversation.contact_id)).map((conversation) => [conversation.contact_id, conversation._id])),
    },
    erasures: {
      findById: async (scope, id) => (erasureOf(scope, id) ? { ...erasureOf(scope, id)! } : null),
      insertIfAbsent: async (erasure) => {
        if (world.erasures.some((existing) => existing._id === erasure._id)) return false;
        world.erasures.push({ ...erasure });
        return true;
      },
      claim: async (scope, read, leaseUntil) => {
        const erasure = erasureOf(scope, read._id);
        if (!erasure || erasure.state !== read.state || erasure.due_at?.getTime() !== read.due_at?.getTime()) return null;
        erasure.due_at = leaseUntil;
        return { erasure: { ...erasure }, leaseUntil };
      },
      findDueAcrossBusinesses: async (at, limit) =>
        world.erasures
          .filter((erasure) => erasure.due_at && erasure.due_at <= at)
          .slice(0, limit)
          .map((erasure) => ({ ...erasure })),
      keepEventSequence: async (scope, id, sequence) => {
        const erasure = erasureOf(scope, id)!;
        erasure.event_sequence ??= sequence;
        return erasure.event_sequence;
      },
      settle: async (scope, claimed, dueAt) => {
        const erasure = held(scope, claimed, 'erasing');
        if (!erasure) return false;
        Object.assign(erasure, { state: 'settling', due_at: dueAt });
        return true;
      },
      finish: async (scope, claimed, at, entry) => {
        const erasure = held(scope, claimed, 'settling');
        if (!erasure) return false;
        Object.assign(erasure, { state: 'erased', due_at: null, finished_at: at, outbox: [...(erasure.outbox ?? []), entry] });
        return true;
      },
    },
    data: {
      deleteContact: async (scope, id) => {
        world.contacts = world.contacts.filter((contact) => !(same(scope, contact) && contact._id === id));
      },
      deleteConversation: async (scope, id) => {
        const conversation = world.conversations.find((candidate) => same(scope, candidate) && candidate._id === id);
        if (!conversation) return null;
        fail('deleteConversation');
        world.conversations = world.conversations.filter((candidate) => candidate !== conversation);
        return conversation.event_sequence + 1;
      },
      customerMediaFiles: async (scope, conversationId) => {
        const ids = world.messages.filter((message) => same(scope, message) && message.conversation_id === conversationId && message.media_file).map((message) => message.media_file!);
        return world.files.filter((file) => same(scope, file) && ids.includes(file._id)).map(({ _id, content_id }) => ({ _id, content_id }));
      },
      deleteFiles: async (scope, ids) => {
        world.files = world.files.filter((file) => !(same(scope, file) && ids.includes(file._id)));
      },
      deleteConversationRecords: async (scope, conversationId) => {
        fail('deleteConversationRecords');
        const other = (record: Keyed) => !(same(scope, record) && record.conversation_id === conversationId);
        world.messages = world.messages.filter(other);
        world.records = world.records.filter(other);
      },
      deleteEvents: async (scope, conversationId, keep) => {
        world.events = world.events.filter((event) => !(same(scope, event) && event.conversation_id === conversationId && event._id !== keep));
      },
    },
    mediaContent: {
      delete: async (contentId) => {
        if (contentId) world.contents.delete(String(contentId));
      },
    },
    events: {
      recordQuietly: async (collection, _scope, documentId, entries) => {
        for (const entry of entries) world.recorded.push({ collection, documentId, entry });
      },
    },
    clock: () => now.at,
    timing: { leaseMs: 60_000, settleMs: 3_000 },
  };
}
