import type { AnyBulkWriteOperation, Model } from 'mongoose';
import {
  AiEmployeeModel,
  ApiTokenModel,
  BusinessModel,
  ChannelModel,
  ContactModel,
  ConversationModel,
  MailboxCategoryModel,
  MailboxModel,
  MessageModel,
  PaymentModel,
  QuickReplyModel,
  TagModel,
  TemplateModel,
  WebhookModel,
} from '../models';
import { scopedFilter } from '../shared/business-scope';
import { ensureIndexes } from '../mongo-connection';
import { deriveConversationState, type ConversationDerivedState, type MessageFacts } from './conversation-derived-state';
import { parseSeedFile, type BusinessSeed } from './seed-file.schema';
import { seedIds } from './seed-ids';
import * as ops from './seed-operations';
import { isDuplicateKeyError } from '../shared/duplicate-key';

export const SEEDED_COLLECTIONS = [
  'businesses',
  'api_tokens',
  'channels',
  'ai_employees',
  'tags',
  'mailbox_categories',
  'mailboxes',
  'templates',
  'quick_replies',
  'webhooks',
  'contacts',
  'conversations',
  'messages',
  'payments',
] as const;
export type SeededCollection = (typeof SEEDED_COLLECTIONS)[number];

/** Per collection: documents the file defines, how many were created, how many changed. */
export interface SeedCounts {
  total: number;
  inserted: number;
  updated: number;
}

export interface BusinessSeedSummary {
  slug: string;
  uuid: string;
  counts: Record<SeededCollection, SeedCounts>;
}

export interface SeedSummary {
  businesses: BusinessSeedSummary[];
}

export interface SeedOptions {
  /** The instant relative times (`now-2h`) resolve against; defaults to the current time. */
  now?: Date;
}

/** A seed that contradicts stored data: a uuid, token, slug or phone_number_id owned by someone else. */
export class SeedConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SeedConflictError';
  }
}

/**
 * Upserts a seed file (CONTRACT 8) through the default mongoose connection, which the caller has
 * opened. Idempotent: every document is keyed by its uuid (channels by public key, a business by
 * its slug), so loading a file again creates nothing and, with absolute times, changes nothing.
 * It never deletes. Businesses are independent, so different businesses may load concurrently.
 * Single-document upserts only (no transactions): a failure part-way leaves what was written,
 * and loading again completes it.
 */
export async function seedDatabase(seedFile: unknown, options: SeedOptions = {}): Promise<SeedSummary> {
  const file = parseSeedFile(seedFile);
  const now = options.now ?? new Date();
  await ensureSeedIndexes();
  const businesses: BusinessSeedSummary[] = [];
  for (const business of file.businesses) businesses.push(await seedBusiness(business, now));
  return { businesses };
}

/** Unique indexes turn a foreign uuid or token into an error instead of a second copy; once per database. */
const databasesWithIndexes = new Map<string, Promise<void>>();
function ensureSeedIndexes(): Promise<void> {
  const key = `${BusinessModel.db.host}:${BusinessModel.db.port}/${BusinessModel.db.name}`;
  let ensured = databasesWithIndexes.get(key);
  if (!ensured) {
    ensured = ensureIndexes().catch((error: unknown) => {
      databasesWithIndexes.delete(key);
      throw error;
    });
    databasesWithIndexes.set(key, ensured);
  }
  return ensured;
}

async function seedBusiness(seed: BusinessSeed, now: Date): Promise<BusinessSeedSummary> {
  const businessId = await resolveBusinessId(seed);
  const ctx = ops.seedContext(businessId, now);
  const counts = {} as Record<SeededCollection, SeedCounts>;
  const write = async (collection: SeededCollection, model: BulkWritable, operations: ops.UpsertOperation[], total = operations.length) => {
    counts[collection] = { total, ...(await bulkUpsert(model, operations)) };
  };

  await write('businesses', BusinessModel, [ops.businessOperation(seed, businessId, now)]);
  await write('api_tokens', ApiTokenModel, ops.apiTokenOperations(seed, ctx), seed.api_tokens.length);
  await write('channels', ChannelModel, ops.channelOperations(seed, ctx));
  const channelIds = await loadChannelIds(ctx, seed);
  await Promise.all([
    write('ai_employees', AiEmployeeModel, ops.aiEmployeeOperations(seed, ctx)),
    write('tags', TagModel, ops.tagOperations(seed, ctx)),
    write('mailbox_categories', MailboxCategoryModel, ops.mailboxCategoryOperations(seed, ctx)),
    write('mailboxes', MailboxModel, ops.mailboxOperations(seed, ctx)),
    write('templates', TemplateModel, ops.templateOperations(seed, ctx, channelIds)),
    write('quick_replies', QuickReplyModel, ops.quickReplyOperations(seed, ctx)),
    write('webhooks', WebhookModel, ops.webhookOperations(seed, ctx)),
  ]);

  const plans = ops.planConversations(seed, ctx, channelIds);
  const derivedStates = await deriveStates(ctx, plans);
  await write('contacts', ContactModel, ops.contactOperations(plans, ctx));
  // Messages before the conversations that summarise them (last_message, unread_count...).
  await write('messages', MessageModel, ops.messageOperations(plans, ctx));
  await write('conversations', ConversationModel, ops.conversationOperations(plans, ctx, derivedStates));
  await write('payments', PaymentModel, ops.paymentOperations(plans, ctx));
  return { slug: seed.slug, uuid: businessId, counts };
}

/** The slug decides: a business keeps its id across loads even when the file names none. */
async function resolveBusinessId(seed: BusinessSeed): Promise<string> {
  const slugLower = seed.slug.toLowerCase();
  const existing = await BusinessModel.findOne({ slug_lower: slugLower }, { _id: 1 }).lean();
  if (existing && seed.uuid && existing._id !== seed.uuid) {
    throw new SeedConflictError(`business slug ${seed.slug} already belongs to business ${existing._id}, not ${seed.uuid}`);
  }
  return existing?._id ?? seed.uuid ?? seedIds.business(slugLower);
}

async function loadChannelIds(ctx: ops.SeedContext, seed: BusinessSeed): Promise<Map<string, string>> {
  const keys = seed.channels.map((channel) => channel.public_key);
  const channels = await ChannelModel.find(scopedFilter(ctx.scope, { public_key: { $in: keys } }), { _id: 1, public_key: 1 }).lean();
  return new Map(channels.map((channel) => [channel.public_key, channel._id]));
}

/**
 * Derived fields follow from every message the conversation has, stored ones included (the seed
 * never deletes, and a seeded conversation may have received messages since the last load).
 */
async function deriveStates(ctx: ops.SeedContext, plans: readonly ops.ConversationPlan[]): Promise<Map<string, ConversationDerivedState>> {
  const ids = plans.map((plan) => plan.conversationId);
  const [conversations, storedMessages] = await Promise.all([
    ConversationModel.find(scopedFilter(ctx.scope, { _id: { $in: ids } }), { _id: 1, created_at: 1 }).lean(),
    MessageModel.find(scopedFilter(ctx.scope, { conversation_id: { $in: ids } }), {
      _id: 1,
      conversation_id: 1,
      is_from_customer: 1,
      body: 1,
      content_type: 1,
      media_transcription_pending: 1,
      created_at: 1,
    }).lean(),
  ]);
  const storedCreatedAt = new Map(conversations.map((conversation) => [conversation._id, conversation.created_at]));
  const messagesByConversation = new Map<string, Map<string, MessageFacts>>(ids.map((id) => [id, new Map()]));
  for (const message of storedMessages) {
    messagesByConversation.get(message.conversation_id)?.set(message._id, { ...message, body: message.body ?? '' });
  }
  return new Map(
    plans.map((plan) => {
      const messages = messagesByConversation.get(plan.conversationId) ?? new Map<string, MessageFacts>();
      for (const message of plan.messages) messages.set(message._id, message);
      const createdAt = plan.createdAt ?? storedCreatedAt.get(plan.conversationId) ?? ctx.now;
      return [plan.conversationId, deriveConversationState([...messages.values()], createdAt)];
    }),
  );
}

type BulkWritable = Pick<Model<unknown>, 'bulkWrite' | 'collection'>;

/**
 * Statements per bulk write. FerretDB 1.24 keeps the PostgreSQL connection of every statement that
 * matched a document until the whole command ends, so a command of more statements than its pool
 * has connections waits for itself forever (and holds the pool for everyone): re-seeding 120
 * contacts in one command did. Small commands release theirs between rounds.
 */
const UPSERTS_PER_COMMAND = 8;

/**
 * Runs the upserts in order, a few per round trip. Two loads racing on the same new document can
 * both try to insert it, and the loser gets a duplicate key. FerretDB does not report which
 * operation of a bulk failed, so the batch then runs again one operation at a time: an operation
 * that meets a duplicate key is retried once (the racing document is there now, and the upsert
 * matches it); failing twice is a real conflict, such as an id of another business or a token
 * or phone_number_id already in use.
 */
async function bulkUpsert(model: BulkWritable, operations: ops.UpsertOperation[]): Promise<Omit<SeedCounts, 'total'>> {
  const counts = { inserted: 0, updated: 0 };
  for (let start = 0; start < operations.length; start += UPSERTS_PER_COMMAND) {
    const slice = await bulkUpsertSlice(model, operations.slice(start, start + UPSERTS_PER_COMMAND));
    counts.inserted += slice.inserted;
    counts.updated += slice.updated;
  }
  return counts;
}

async function bulkUpsertSlice(model: BulkWritable, operations: ops.UpsertOperation[]): Promise<Omit<SeedCounts, 'total'>> {
  try {
    const result = await model.bulkWrite(operations as unknown as AnyBulkWriteOperation[], { ordered: true });
    return { inserted: result.upsertedCount, updated: result.modifiedCount };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const counts = { inserted: 0, updated: 0 };
  for (const operation of operations) {
    const result = await retryOnceOnDuplicateKey(() => model.bulkWrite([operation] as unknown as AnyBulkWriteOperation[])).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
      throw new SeedConflictError(
        `${model.collection.name} ${JSON.stringify(operation.updateOne.filter)}: duplicate key; an id, token, slug or phone_number_id of this document already belongs to another business or object`,
        { cause: error },
      );
    });
    counts.inserted += result.upsertedCount;
    counts.updated += result.modifiedCount;
  }
  return counts;
}

async function retryOnceOnDuplicateKey<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return write();
  }
}

function isDuplicateKey(error: unknown): boolean {
  const failure = error as { code?: unknown; writeErrors?: { code?: unknown } | { code?: unknown }[] } | null;
  const writeErrors = ([] as { code?: unknown }[]).concat(failure?.writeErrors ?? []);
  return isDuplicateKeyError(failure) || writeErrors.some(isDuplicateKeyError);
}
