import {
  type AiEmployeeRepository,
  type ApiTokenRepository,
  type BusinessRepository,
  type ChannelRepository,
  type ContactRepository,
  type ConversationRepository,
  type MailboxCategoryRepository,
  type MailboxRepository,
  type MessageRepository,
  type PaymentRepository,
  type QuickReplyRepository,
  type TagRepository,
  type TemplateRepository,
  type SeedUpsert,
  type UpsertCounts,
  UpsertConflictError,
  type WebhookEndpointRepository,
  connectedDatabaseKey,
  ensureIndexes,
} from '@cmsg/dal';
import { deriveConversationState, type ConversationDerivedState, type MessageFacts } from './conversation-derived-state';
import { parseSeedFile, type BusinessSeed } from './seed-file.schema';
import { seedIds } from './seed-ids';
import * as ops from './seed-operations';

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
  'webhook_endpoints',
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

/**
 * The collections a seed load reads and writes, built once by the caller (libs/dal's
 * `seedStoresOverMongo`). Its webhook endpoints bump the endpoint list versions of the services
 * that keep endpoint lists in memory (docs/webhooks.md, Endpoint list cache).
 */
export interface SeedStores {
  businesses: Pick<BusinessRepository, 'upsertFromSeed' | 'findBySlug'>;
  apiTokens: Pick<ApiTokenRepository, 'upsertMany'>;
  channels: Pick<ChannelRepository, 'upsertByPublicKey' | 'findByPublicKeys'>;
  aiEmployees: Pick<AiEmployeeRepository, 'upsertFromSeed'>;
  tags: Pick<TagRepository, 'upsertMany'>;
  mailboxCategories: Pick<MailboxCategoryRepository, 'upsertMany'>;
  mailboxes: Pick<MailboxRepository, 'upsertMany'>;
  templates: Pick<TemplateRepository, 'upsertMany'>;
  quickReplies: Pick<QuickReplyRepository, 'upsertMany'>;
  webhookEndpoints: Pick<WebhookEndpointRepository, 'upsertFromSeed'>;
  contacts: Pick<ContactRepository, 'upsertMany'>;
  conversations: Pick<ConversationRepository, 'upsertMany' | 'findByIds'>;
  messages: Pick<MessageRepository, 'upsertMany' | 'findOfConversations'>;
  payments: Pick<PaymentRepository, 'upsertMany'>;
}

/** A seed that contradicts stored data: a uuid, token, slug or phone_number_id owned by someone else. */
export class SeedConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SeedConflictError';
  }
}

/**
 * Upserts a seed file (CONTRACT 8) through `stores`, over the default mongoose connection, which
 * the caller has opened. Idempotent: every document is keyed by its uuid (channels by public key,
 * a business by its slug), so loading a file again creates nothing and, with absolute times,
 * changes nothing.
 * It never deletes. Businesses are independent, so different businesses may load concurrently.
 * Single-document upserts only (no transactions): a failure part-way leaves what was written,
 * and loading again completes it.
 */
export async function seedDatabase(stores: SeedStores, seedFile: unknown, options: SeedOptions = {}): Promise<SeedSummary> {
  const file = parseSeedFile(seedFile);
  const now = options.now ?? new Date();
  await ensureSeedIndexes();
  const businesses: BusinessSeedSummary[] = [];
  try {
    for (const business of file.businesses) businesses.push(await seedBusiness(stores, business, now));
  } catch (error) {
    if (error instanceof UpsertConflictError) throw new SeedConflictError(error.message, { cause: error });
    throw error;
  }
  return { businesses };
}

/** Unique indexes turn a foreign uuid or token into an error instead of a second copy; once per database. */
const databasesWithIndexes = new Map<string, Promise<void>>();
function ensureSeedIndexes(): Promise<void> {
  const key = connectedDatabaseKey();
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

async function seedBusiness(stores: SeedStores, seed: BusinessSeed, now: Date): Promise<BusinessSeedSummary> {
  const businessId = await resolveBusinessId(stores, seed);
  const ctx = ops.seedContext(businessId, now);
  const { scope } = ctx;
  const counts = {} as Record<SeededCollection, SeedCounts>;
  const write = async (collection: SeededCollection, total: number, upserts: Promise<UpsertCounts>) => {
    counts[collection] = { total, ...(await upserts) };
  };

  await write('businesses', 1, stores.businesses.upsertFromSeed(ops.businessFields(seed, businessId), now));
  await write('api_tokens', seed.api_tokens.length, stores.apiTokens.upsertMany(scope, ops.apiTokenFields(seed), now));
  await write('channels', seed.channels.length, stores.channels.upsertByPublicKey(scope, ops.channelFields(seed, ctx)));
  const channelIds = await loadChannelIds(stores, ctx, seed);
  await Promise.all([
    write('ai_employees', seed.ai_employees.length, stores.aiEmployees.upsertFromSeed(scope, ops.aiEmployeeFields(seed))),
    upsertAll('tags', stores.tags, ops.tagUpserts(seed)),
    upsertAll('mailbox_categories', stores.mailboxCategories, ops.mailboxCategoryUpserts(seed)),
    upsertAll('mailboxes', stores.mailboxes, ops.mailboxUpserts(seed)),
    upsertAll('templates', stores.templates, ops.templateUpserts(seed, channelIds)),
    upsertAll('quick_replies', stores.quickReplies, ops.quickReplyUpserts(seed)),
    write('webhook_endpoints', seed.webhooks.length, stores.webhookEndpoints.upsertFromSeed(scope, ops.webhookEndpointSeeds(seed, ctx), now)),
  ]);

  const plans = ops.planConversations(seed, ctx, channelIds);
  const derivedStates = await deriveStates(stores, ctx, plans);
  await upsertAll('contacts', stores.contacts, ops.contactUpserts(plans, ctx, derivedStates, seed.attribute_definitions));
  // Messages before the conversations that summarise them (last_message, unread_count...).
  await upsertAll('messages', stores.messages, ops.messageUpserts(plans));
  await upsertAll('conversations', stores.conversations, ops.conversationUpserts(plans, ctx, derivedStates));
  await upsertAll('payments', stores.payments, ops.paymentUpserts(plans, ctx));
  return { slug: seed.slug, uuid: businessId, counts };

  function upsertAll(collection: SeededCollection, repository: { upsertMany: ContactRepository['upsertMany'] }, upserts: SeedUpsert[]): Promise<void> {
    return write(collection, upserts.length, repository.upsertMany(scope, upserts));
  }
}

/** The slug decides: a business keeps its id across loads even when the file names none. */
async function resolveBusinessId(stores: SeedStores, seed: BusinessSeed): Promise<string> {
  const existing = await stores.businesses.findBySlug(seed.slug);
  if (existing && seed.uuid && existing._id !== seed.uuid) {
    throw new SeedConflictError(`business slug ${seed.slug} already belongs to business ${existing._id}, not ${seed.uuid}`);
  }
  return existing?._id ?? seed.uuid ?? seedIds.business(seed.slug.toLowerCase());
}

async function loadChannelIds(stores: SeedStores, ctx: ops.SeedContext, seed: BusinessSeed): Promise<Map<string, string>> {
  const channels = await stores.channels.findByPublicKeys(
    ctx.scope,
    seed.channels.map((channel) => channel.public_key),
  );
  return new Map(channels.map((channel) => [channel.public_key, channel._id]));
}

/**
 * Derived fields follow from every message the conversation has, stored ones included (the seed
 * never deletes, and a seeded conversation may have received messages since the last load).
 */
async function deriveStates(stores: SeedStores, ctx: ops.SeedContext, plans: readonly ops.ConversationPlan[]): Promise<Map<string, ConversationDerivedState>> {
  const ids = plans.map((plan) => plan.conversationId);
  const [conversations, storedMessages] = await Promise.all([stores.conversations.findByIds(ctx.scope, ids), stores.messages.findOfConversations(ctx.scope, ids)]);
  const storedCreatedAt = new Map(conversations.map((conversation) => [conversation._id, conversation.created_at]));
  const messagesByConversation = new Map<string, Map<string, MessageFacts>>(ids.map((id) => [id, new Map()]));
  for (const message of storedMessages) {
    messagesByConversation.get(message.conversation_id)?.set(message._id, {
      _id: message._id,
      is_from_customer: message.is_from_customer,
      body: message.body ?? '',
      content_type: message.content_type,
      media_transcription_pending: message.media_transcription_pending,
      created_at: message.created_at,
    });
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
