import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { insertIfAbsent, insertManyIfAbsent } from '../shared/duplicate-key';
import { TenantRepository } from '../shared/tenant-repository';
import type { ContactSnapshot } from '../contact/contact-snapshot';
import { type OutboxEntry, storedOutboxEntry } from '../shared/outbox-entry.schema';
import type { ConversationEntity, LastMessage } from './conversation.entity';
import { ConversationModel } from './conversation.schema';

type Fields = Record<string, unknown>;

/** How many of the last counted inbound messages a conversation remembers (redeliveries come within minutes). */
const RECENT_INBOUND_MESSAGES = 100;

/**
 * A change of the conversation that pushes an outbox entry takes its event's sequence in the same
 * update: the conversation it answers holds that sequence in event_sequence (docs/events.md, Sequence).
 */
const TAKE_EVENT_SEQUENCE = { event_sequence: 1 } as const;

/**
 * What a change answers: the conversation without its outbox (the writer holds the entry it pushed).
 * On the local stand-in the projection also matters for correctness: it answers a copy taken under
 * the collection's lock, where without one a concurrent update could show in the answer, and with
 * it another change's event sequence (docs/data-layer.md, "The local server's planner").
 */
const CHANGED_PROJECTION = { outbox: 0 } as const;

/** What an update that only takes a sequence answers: the conversation's event_sequence after it. */
const SEQUENCE_PROJECTION = { event_sequence: 1 } as const;

/** Large arrays a list page never shows. */
const LIST_PROJECTION = { outbox: 0, recent_inbound_message_ids: 0, awaiting_media_message_ids: 0 } as const;

/** What the conversation list can be limited to (CONTRACT 9.1); an absent member does not limit it. */
export interface ConversationListFilter {
  inboxStatus?: string;
  /** Every one of these tags. */
  tagIds?: readonly string[];
  mailboxId?: string;
  /** That AI employee, or null for the conversations no AI employee owns. */
  aiEmployeeId?: string | null;
  isTester?: boolean;
  /**
   * open: the customer wrote after `since` (the 24 h window is open); closed: not since then, or
   * never. Tester conversations live on the business's virtual clock: their `since` is `testerSince`.
   */
  window?: { open: boolean; since: Date; testerSince: Date };
  /** Changed (last message, inbox status, owner, tags, mailbox) at or after this time. */
  updatedSince?: Date;
}

/** A new conversation, as stored (business_id comes from the scope); absent fields take their defaults. */
export type NewConversation = Pick<ConversationEntity, '_id' | 'contact_id' | 'channel_id' | 'sort_at' | 'created_at' | 'updated_at'> &
  Partial<Omit<ConversationEntity, 'business_id'>>;

/** A change of one field from the value read to another, and the outbox entry that records it. */
export interface ConversationChange<Value> {
  from: Value;
  to: Value;
  event: OutboxEntry;
  now: Date;
}

export interface InboxStatusChange extends ConversationChange<string> {
  pendingReason: string | null;
  /** Resolving: only while no AI is assigned or no inbound media awaits transcription (SPEC 7, TRANSCRIPTION_REQUIRED_TO_RESOLVE). */
  onlyIfResolvable: boolean;
}

export interface InboundMessageApplied {
  messageId: string;
  sentAt: Date;
  /** The message carries media that awaits its transcription. */
  awaitingMedia: boolean;
  /** The entry recording the message (message.received), recorded after the change. */
  event: OutboxEntry;
  now: Date;
}

/**
 * The conversations collection. Owner, inbox status, mailbox and tags change by one update of the
 * conversation whose filter holds what the change replaces, with the change's outbox entry pushed
 * in the same update (docs/data-layer.md, "Writes"; docs/events.md), which also takes the entry's
 * event sequence: such a method answers the conversation after the change (its event_sequence is
 * the entry's), or null when it no longer held that value (another change came first, or there is
 * no such conversation). The outbox itself is emptied through OutboxRepository.
 */
export class ConversationRepository extends TenantRepository<ConversationEntity> {
  constructor() {
    super(ConversationModel);
  }

  findByContactId(scope: BusinessScope, contactId: string): Promise<ConversationEntity | null> {
    return ConversationModel.findOne(scopedFilter(scope, { contact_id: contactId })).lean<ConversationEntity>().exec();
  }

  /** The conversation id of each contact that has one (a contact page's `conversation`): {business_id, contact_id}. */
  async idsByContactIds(scope: BusinessScope, contactIds: readonly string[]): Promise<Map<string, string>> {
    if (contactIds.length === 0) return new Map();
    const rows = await ConversationModel.find(scopedFilter(scope, { contact_id: { $in: [...new Set(contactIds)] } }), { contact_id: 1 }).lean<{ _id: string; contact_id: string }[]>().exec();
    return new Map(rows.map((row) => [row.contact_id, row._id]));
  }

  /**
   * One page of the list (keyset on sort_at and _id): `after` is the cursor's filter, `direction`
   * the order, `filter` what the page is limited to (served by the list indexes of the schema).
   */
  listPage(scope: BusinessScope, page: { filter: ConversationListFilter; after: Fields; direction: 1 | -1; limit: number }): Promise<ConversationEntity[]> {
    return ConversationModel.find(scopedFilter(scope, conversationListQuery(page.filter, page.after)), LIST_PROJECTION)
      .sort({ sort_at: page.direction, _id: page.direction })
      .limit(page.limit)
      .lean<ConversationEntity[]>()
      .exec();
  }

  /**
   * False when the conversation (or another one of the same contact) exists already. Its
   * conversation.created entry, if any, comes in `outbox`: only the insert that wins holds it.
   */
  createIfAbsent(scope: BusinessScope, conversation: NewConversation): Promise<boolean> {
    return insertIfAbsent(() => ConversationModel.create({ ...conversation, business_id: scope.businessId }));
  }

  /** The same for many in one insert (the schema's defaults applied as `create` applies them): answers the ids created. */
  async createManyIfAbsent(scope: BusinessScope, conversations: readonly NewConversation[]): Promise<string[]> {
    const documents = conversations.map((conversation) => new ConversationModel({ ...conversation, business_id: scope.businessId }).toObject());
    const lost = await insertManyIfAbsent(ConversationModel.collection, documents);
    return conversations.filter((_conversation, index) => !lost.has(index)).map((conversation) => conversation._id);
  }

  /** Refreshes the contact's copy on its conversation and answers the conversation (null: the contact has none yet). */
  refreshContactSnapshot(scope: BusinessScope, contactId: string, snapshot: ContactSnapshot): Promise<ConversationEntity | null> {
    return ConversationModel.findOneAndUpdate(scopedFilter(scope, { contact_id: contactId }), { $set: { contact: snapshot } }, { new: true }).lean<ConversationEntity>().exec();
  }

  changeOwner(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<ConversationEntity | null> {
    return this.change(scope, { _id: id, ai_employee_id: change.from }, { ai_employee_id: change.to }, change);
  }

  changeInboxStatus(scope: BusinessScope, id: string, change: InboxStatusChange): Promise<ConversationEntity | null> {
    const resolvable = change.onlyIfResolvable ? { $or: [{ ai_employee_id: null }, { media_awaiting_transcription: { $lte: 0 } }] } : {};
    return this.change(scope, { _id: id, inbox_status: change.from, ...resolvable }, { inbox_status: change.to, pending_reason: change.pendingReason }, change);
  }

  changeMailbox(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<ConversationEntity | null> {
    return this.change(scope, { _id: id, mailbox_id: change.from }, { mailbox_id: change.to }, change);
  }

  /** Adds every tag, or none: null when one of them is on the conversation already. */
  addTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<ConversationEntity | null> {
    return this.findOneAndUpdateDirect<ConversationEntity>(
      scopedFilter(scope, { _id: id, tag_ids: { $nin: [...tagIds] } }),
      { $addToSet: { tag_ids: { $each: [...tagIds] } }, $push: { outbox: storedOutboxEntry(event) }, $max: { updated_at: now }, $inc: { ...TAKE_EVENT_SEQUENCE } },
      CHANGED_PROJECTION,
    );
  }

  /** Removes every tag, or none: null when one of them is no longer on the conversation. */
  removeTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<ConversationEntity | null> {
    return this.findOneAndUpdateDirect<ConversationEntity>(
      scopedFilter(scope, { _id: id, tag_ids: { $all: [...tagIds] } }),
      { $pull: { tag_ids: { $in: [...tagIds] } }, $push: { outbox: storedOutboxEntry(event) }, $max: { updated_at: now }, $inc: { ...TAKE_EVENT_SEQUENCE } },
      CHANGED_PROJECTION,
    );
  }

  /**
   * Counts an inbound message on the conversation once: the window, the unread count, the media
   * awaiting transcription, and its message.received entry, in one update that a message counted
   * before does not match. Answers the conversation when this call counted it, null otherwise.
   */
  applyInboundMessage(scope: BusinessScope, id: string, inbound: InboundMessageApplied): Promise<ConversationEntity | null> {
    return this.findOneAndUpdateDirect<ConversationEntity>(
      scopedFilter(scope, { _id: id, recent_inbound_message_ids: { $ne: inbound.messageId } }),
      {
        $set: { last_inbound_message_id: inbound.messageId },
        $max: { last_inbound_at: inbound.sentAt, updated_at: inbound.now },
        $inc: { unread_count: 1, ...TAKE_EVENT_SEQUENCE, ...(inbound.awaitingMedia ? { media_awaiting_transcription: 1 } : {}) },
        $push: {
          recent_inbound_message_ids: { $each: [inbound.messageId], $slice: -RECENT_INBOUND_MESSAGES },
          ...(inbound.awaitingMedia ? { awaiting_media_message_ids: inbound.messageId } : {}),
          outbox: storedOutboxEntry(inbound.event),
        },
      },
      CHANGED_PROJECTION,
    );
  }

  /** An inbound media no longer awaits its transcription: counted down once, whoever calls it how often. */
  async releaseAwaitingMedia(scope: BusinessScope, id: string, messageId: string): Promise<boolean> {
    const released = await ConversationModel.updateOne(scopedFilter(scope, { _id: id, awaiting_media_message_ids: messageId }), {
      $pull: { awaiting_media_message_ids: messageId },
      $inc: { media_awaiting_transcription: -1 },
    });
    return released.modifiedCount === 1;
  }

  /**
   * Shows a message as the conversation's newest (and the list's sort key), unless a newer one is
   * shown already; an outbound message also means the team has read the conversation (unread 0).
   * Showing the message shown already changes nothing (updated_at stays: a repeat is no change).
   */
  async showLastMessage(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<void> {
    await this.collection().updateOne(lastMessageFilter(scope, id, message), { $set: lastMessageFields(message), $max: { updated_at: now } });
  }

  /**
   * showLastMessage for a message whose event is recorded next: the same update also takes that
   * event's sequence. Answers the conversation's event_sequence (the event's), or null when the
   * message was not shown (a newer one is, or it is shown already): the event then takes the next.
   */
  showLastMessageTakingSequence(scope: BusinessScope, id: string, message: LastMessage, now: Date): Promise<Pick<ConversationEntity, 'event_sequence'> | null> {
    return this.findOneAndUpdateDirect<Pick<ConversationEntity, 'event_sequence'>>(
      lastMessageFilter(scope, id, message),
      { $set: lastMessageFields(message), $max: { updated_at: now }, $inc: { ...TAKE_EVENT_SEQUENCE } },
      SEQUENCE_PROJECTION,
    );
  }


  /**
   * The next event sequence of the conversation ($inc of event_sequence): the sequence of an event
   * whose change did not take one (an entry of another collection, or recorded by the relay). A
   * recording that does not complete leaves its number unused (a gap).
   */
  async nextEventSequence(scope: BusinessScope, id: string): Promise<number | null> {
    const updated = await this.findOneAndUpdateDirect<Pick<ConversationEntity, 'event_sequence'>>(scopedFilter(scope, { _id: id }), { $inc: { ...TAKE_EVENT_SEQUENCE } }, SEQUENCE_PROJECTION);
    return updated?.event_sequence ?? null;
  }

  /** Many new conversations in one round trip (benchmarks and tests building large businesses). */
  async insertMany(scope: BusinessScope, conversations: readonly NewConversation[]): Promise<void> {
    await ConversationModel.insertMany(conversations.map((conversation) => ({ ...conversation, business_id: scope.businessId })));
  }

  private change(scope: BusinessScope, filter: Fields, fields: Fields, change: { event: OutboxEntry; now: Date }): Promise<ConversationEntity | null> {
    return this.findOneAndUpdateDirect<ConversationEntity>(
      scopedFilter(scope, filter),
      { $set: fields, $max: { updated_at: change.now }, $push: { outbox: storedOutboxEntry(change.event) }, $inc: { ...TAKE_EVENT_SEQUENCE } },
      CHANGED_PROJECTION,
    );
  }
}

/** The conversation, unless it shows this message or a newer one already. */
function lastMessageFilter(scope: BusinessScope, id: string, message: LastMessage): Fields {
  return scopedFilter(scope, {
    _id: id,
    'last_message.uuid': { $ne: message.uuid },
    $or: [{ last_message: null }, { 'last_message.created_at': { $lte: message.created_at } }],
  });
}

function lastMessageFields(message: LastMessage): Fields {
  // Written through the driver: the schema's fields only, as mongoose's cast kept them.
  const { uuid, body, content_type, is_from_customer, created_at } = message;
  const lastMessage = { uuid, body: body ?? '', content_type, is_from_customer, created_at };
  return { last_message: lastMessage, sort_at: created_at, ...(is_from_customer ? {} : { unread_count: 0 }) };
}

/**
 * The list's filter and the cursor's keyset condition as one MongoDB filter (without the tenant
 * key); exported for the spec that checks every combination against the list indexes.
 */
export function conversationListQuery(filter: ConversationListFilter, after: Fields): Fields {
  const query: Fields = {};
  const clauses: Fields[] = Object.keys(after).length > 0 ? [after] : [];
  if (filter.inboxStatus !== undefined) query['inbox_status'] = filter.inboxStatus;
  if (filter.tagIds !== undefined && filter.tagIds.length > 0) query['tag_ids'] = { $all: [...filter.tagIds] };
  if (filter.mailboxId !== undefined) query['mailbox_id'] = filter.mailboxId;
  if (filter.aiEmployeeId !== undefined) query['ai_employee_id'] = filter.aiEmployeeId;
  if (filter.isTester !== undefined) query['is_tester'] = filter.isTester;
  if (filter.updatedSince !== undefined) query['updated_at'] = { $gte: filter.updatedSince };
  const window = filter.window;
  if (window) {
    // $not also matches conversations whose customer never wrote (last_inbound_at null).
    const inWindow = (since: Date) => (window.open ? { $gt: since } : { $not: { $gt: since } });
    if (filter.isTester !== undefined) query['last_inbound_at'] = inWindow(filter.isTester ? window.testerSince : window.since);
    else if (window.since.getTime() === window.testerSince.getTime()) query['last_inbound_at'] = inWindow(window.since);
    else clauses.push({ $or: [{ is_tester: false, last_inbound_at: inWindow(window.since) }, { is_tester: true, last_inbound_at: inWindow(window.testerSince) }] });
  }
  if (clauses.length === 1) return { ...query, ...clauses[0] };
  if (clauses.length > 1) query['$and'] = clauses;
  return query;
}
