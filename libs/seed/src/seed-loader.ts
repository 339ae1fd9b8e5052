import {
  AiEmployeeRepository,
  ApiTokenRepository,
  BusinessRepository,
  ChannelRepository,
  ContactRepository,
  ConversationRepository,
  MailboxCategoryRepository,
  MailboxRepository,
  MessageRepository,
  PaymentRepository,
  QuickReplyRepository,
  TagRepository,
  TemplateRepository,
  type SeedUpsert,
  type UpsertCounts,
  UpsertConflictError,
  WebhookEndpointRepository,
  type WebhookEndpointListVersions,
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
  /**
   * Bumped when a business's webhook endpoints are written, so the services that keep endpoint
   * lists in memory fan the next event out to the seeded ones (docs/webhooks.md, Endpoint list cache).
   */
  endpointListVersions: Pick<WebhookEndpointListVersions, 'bump'>;
}

/** A seed that contradicts stored data: a uuid, token, slug or phone_number_id owned by someone else. */
export class SeedConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SeedConflictError';
  }
}

const repositories = {
  businesses: new BusinessRepository(),
  apiTokens: new ApiTokenRepository(),
  channels: new ChannelRepository(),
  aiEmployees: new AiEmployeeRepository(),
  tags: new TagRepository(),
  mailboxCategories: new MailboxCategoryRepository(),
  mailboxes: new MailboxRepository(),
  templates: new TemplateRepository(),
  quickReplies: new QuickReplyRepository(),
  contacts: new ContactRepository(),
  conversations: new ConversationRepository(),
  messages: new MessageRepository(),
  payments: new PaymentRepository(),
};

/**
 * Upserts a seed file (CONTRACT 8) through the default mongoose connection, which the caller has
 * opened. Idempotent: every document is keyed by its uuid (channels by public key, a business by
 * its slug), so loading a file again creates nothing and, with absolute times, changes nothing.
 * It never deletes. Businesses are independent, so different businesses may load concurrently.
 * Single-document upserts only (no transactions): a failure part-way leaves what was written,
 * and loading again completes it.
 */
export async function seedDatabase(seedFile: unknown, options: SeedOptions): Promise<SeedSummary> {
  const file = parseSeedFile(seedFile);
  const now = options.now ?? new Date();
  const webhookEndpoints = new WebhookEndpointRepository(options.endpointListVersions);
  await ensureSeedIndexes();
  const businesses: BusinessSeedSummary[] = [];
  try {
    for (const business of file.businesses) businesses.push(await seedBusiness(business, now, webhookEndpoints));
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

async function seedBusiness(seed: BusinessSeed, now: Date, webhookEndpoints: WebhookEndpointRepository): Promise<BusinessSeedSummary> {
  const businessId = await resolveBusinessId(seed);
  const ctx = ops.seedContext(businessId, now);
  const { scope } = ctx;
  const counts = {} as Record<SeededCollection, SeedCounts>;
  const write = async (collection: SeededCollection, total: number, upserts: Promise<UpsertCounts>) => {
    counts[collection] = { total, ...(await upserts) };
  };

  await write('businesses', 1, repositories.businesses.upsertFromSeed(ops.businessFields(seed, businessId), now));
  await write('api_tokens', seed.api_tokens.length, repositories.apiTokens.upsertMany(scope, ops.apiTokenFields(seed), now));
  await write('channels', seed.channels.length, repositories.channels.upsertByPublicKey(scope, ops.channelFields(seed, ctx)));
  const channelIds = await loadChannelIds(ctx, seed);
  await Promise.all([
    write('ai_employees', seed.ai_employees.length, repositories.aiEmployees.upsertFromSeed(scope, ops.aiEmployeeFields(seed))),
    upsertAll('tags', repositories.tags, ops.tagUpserts(seed)),
    upsertAll('mailbox_categories', repositories.mailboxCategories, ops.mailboxCategoryUpserts(seed)),
    upsertAll('mailboxes', repositories.mailboxes, ops.mailboxUpserts(seed)),
    upsertAll('templates', repositories.templates, ops.templateUpserts(seed, channelIds)),
    upsertAll('quick_replies', repositories.quickReplies, ops.quickReplyUpserts(seed)),
    write('webhook_endpoints', seed.webhooks.length, webhookEndpoints.upsertFromSeed(scope, ops.webhookEndpointSeeds(seed, ctx), now)),
  ]);

  const plans = ops.planConversations(seed, ctx, channelIds);
  const derivedStates = await deriveStates(ctx, plans);
  await upsertAll('contacts', repositories.contacts, ops.contactUpserts(plans, ctx, derivedStates, seed.attribute_definitions));
  // Messages before the conversations that summarise them (last_message, unread_count...).
  await upsertAll('messages', repositories.messages, ops.messageUpserts(plans));
  await upsertAll('conversations', repositories.conversations, ops.conversationUpserts(plans, ctx, derivedStates));
  await upsertAll('payments', repositories.payments, ops.paymentUpserts(plans, ctx));
  return { slug: seed.slug, uuid: businessId, counts };

  function upsertAll(collection: SeededCollection, repository: { upsertMany: ContactRepository['upsertMany'] }, upserts: SeedUpsert[]): Promise<void> {
    return write(collection, upserts.length, repository.upsertMany(scope, upserts));
  }
}

/** The slug decides: a business keeps its id across loads even when the file names none. */
async function resolveBusinessId(seed: BusinessSeed): Promise<string> {
  const existing = await repositories.businesses.findBySlug(seed.slug);
  if (existing && seed.uuid && existing._id !== seed.uuid) {
    throw new SeedConflictError(`business slug ${seed.slug} already belongs to business ${existing._id}, not ${seed.uuid}`);
  }
  return existing?._id ?? seed.uuid ?? seedIds.business(seed.slug.toLowerCase());
}

async function loadChannelIds(ctx: ops.SeedContext, seed: BusinessSeed): Promise<Map<string, string>> {
  const channels = await repositories.channels.findByPublicKeys(
    ctx.scope,
    seed.channels.map((channel) => channel.public_key),
  );
  return new Map(channels.map((channel) => [channel.public_key, channel._id]));
}

/**
 * Derived fields follow from every message the conversation has, stored ones included (the seed
 * never deletes, and a seeded conversation may have received messages since the last load).
 */
async function deriveStates(ctx: ops.SeedContext, plans: readonly ops.ConversationPlan[]): Promise<Map<string, ConversationDerivedState>> {
  const ids = plans.map((plan) => plan.conversationId);
  const [conversations, storedMessages] = await Promise.all([repositories.conversations.findByIds(ctx.scope, ids), repositories.messages.findOfConversations(ctx.scope, ids)]);
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
