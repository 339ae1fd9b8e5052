import { businessScope, scopedFilter, type BusinessScope } from '../shared/business-scope';
import { contactSnapshotOf } from '../contact/contact-snapshot';
import { nameLookupKey, phoneLookupKey, usernameLookupKey } from '../shared/lookup-keys';
import { hashApiToken } from './api-token';
import type { ConversationDerivedState } from './conversation-derived-state';
import { highestPlaceholder, type BusinessSeed, type ContactSeed } from './seed-file.schema';
import { seedIds } from './seed-ids';
import { resolveSeedTime } from './seed-time';

/*
 * Pure builders of the bulkWrite operations of one business. Every operation is an upsert keyed
 * by the object's id within the business: `$set` carries everything the seed defines,
 * `$setOnInsert` what only a first load decides (creation times). The business id is in every
 * filter, so a uuid that already belongs to another business fails on the unique _id instead
 * of moving the document.
 */

type Fields = Record<string, unknown>;
export interface UpsertOperation {
  updateOne: { filter: Fields; update: { $set: Fields; $setOnInsert?: Fields }; upsert: boolean };
}

export interface SeedContext {
  readonly scope: BusinessScope;
  readonly now: Date;
}

export function seedContext(businessId: string, now: Date): SeedContext {
  return { scope: businessScope(businessId), now };
}

function upsert(filter: Fields, $set: Fields, $setOnInsert?: Fields): UpsertOperation {
  return { updateOne: { filter, update: $setOnInsert ? { $set, $setOnInsert } : { $set }, upsert: true } };
}

function update(filter: Fields, $set: Fields): UpsertOperation {
  return { updateOne: { filter, update: { $set }, upsert: false } };
}

const byId = (ctx: SeedContext, id: string) => scopedFilter(ctx.scope, { _id: id });
const e164 = (phone: string) => `+${phoneLookupKey(phone)}`;

function withoutComment<T extends { $comment?: string }>(value: T): Omit<T, '$comment'> {
  const { $comment: _ignored, ...rest } = value;
  return rest;
}

export function businessOperation(seed: BusinessSeed, businessId: string, now: Date): UpsertOperation {
  return upsert(
    { _id: businessId },
    {
      slug: seed.slug,
      slug_lower: seed.slug.toLowerCase(),
      name: seed.name,
      time_zone: seed.time_zone,
      vision_wallet_funded_tokens: seed.vision_wallet_tokens,
      payment_profile: seed.payment_profile ? withoutComment(seed.payment_profile) : null,
    },
    { created_at: now },
  );
}

/** Revocation is a separate conditional update so that revoked_at keeps the first revocation time. */
export function apiTokenOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.api_tokens.flatMap((token) => [
    upsert(byId(ctx, token.uuid), { token_sha256: hashApiToken(token.token) }, { created_at: ctx.now, revoked: token.revoked, revoked_at: token.revoked ? ctx.now : null }),
    update(
      { ...byId(ctx, token.uuid), revoked: !token.revoked },
      token.revoked ? { revoked: true, revoked_at: ctx.now } : { revoked: false, revoked_at: null },
    ),
  ]);
}

/** Channels are keyed by public key; the id is derived on first insert only. */
export function channelOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.channels.map((channel) =>
    upsert(
      scopedFilter(ctx.scope, { public_key: channel.public_key }),
      {
        name: channel.name,
        phone: channel.phone ? e164(channel.phone) : '',
        phone_number_id: channel.phone_number_id,
        access_token: channel.access_token,
        default_scheduled_template: channel.default_scheduled_template,
      },
      { _id: seedIds.channel(ctx.scope.businessId, channel.public_key) },
    ),
  );
}

export function aiEmployeeOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.ai_employees.map((employee) =>
    upsert(byId(ctx, employee.uuid), {
      name: employee.name,
      name_key: nameLookupKey(employee.name),
      model: employee.model,
      instructions: employee.instructions,
      wallet_funded_tokens: employee.wallet_tokens,
    }),
  );
}

export function tagOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.tags.map((tag) => upsert(byId(ctx, tag.uuid), { name: tag.name, name_key: nameLookupKey(tag.name), color: tag.color, is_default: tag.is_default }));
}

export function mailboxCategoryOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.mailbox_categories.map((category) => upsert(byId(ctx, category.uuid), { name: category.name, name_key: nameLookupKey(category.name) }));
}

export function mailboxOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.mailbox_categories.flatMap((category) =>
    category.mailboxes.map((mailbox) => upsert(byId(ctx, mailbox.uuid), { category_id: category.uuid, name: mailbox.name, name_key: nameLookupKey(mailbox.name) })),
  );
}

export function templateOperations(seed: BusinessSeed, ctx: SeedContext, channelIds: ReadonlyMap<string, string>): UpsertOperation[] {
  return seed.templates.map((template) =>
    upsert(byId(ctx, template.uuid), {
      channel_id: channelId(channelIds, template.channel),
      name: template.name,
      language: template.language,
      status: template.status,
      category: template.category,
      body: template.body,
      variable_count: template.variable_count ?? highestPlaceholder(template.body),
      header_type: template.header_type,
      buttons: template.buttons.map(withoutComment),
      is_fake: template.is_fake,
    }),
  );
}

export function quickReplyOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.quick_replies.map((reply) =>
    upsert(byId(ctx, reply.uuid), { name: reply.name, name_key: nameLookupKey(reply.name), actions: reply.actions.map((action) => ({ text: action.text })) }),
  );
}

export function webhookOperations(seed: BusinessSeed, ctx: SeedContext): UpsertOperation[] {
  return seed.webhooks.map((webhook) =>
    upsert(byId(ctx, seedIds.webhook(ctx.scope.businessId, webhook.url)), { url: webhook.url, secret: webhook.secret, events: webhook.events }),
  );
}

/** A contact's conversation with every id and time resolved. */
export interface ConversationPlan {
  contact: ContactSeed;
  conversationId: string;
  channelId: string;
  /** Set when the seed gives the contact's created_at; otherwise the first load's time stays. */
  createdAt: Date | null;
  messages: { _id: string; is_from_customer: boolean; body: string; content_type: string; media_transcription_pending: boolean; created_at: Date }[];
}

export function planConversations(seed: BusinessSeed, ctx: SeedContext, channelIds: ReadonlyMap<string, string>): ConversationPlan[] {
  return seed.contacts.map((contact) => {
    const conversationId = contact.conversation.uuid ?? seedIds.conversation(contact.uuid);
    return {
      contact,
      conversationId,
      channelId: channelId(channelIds, contact.channel),
      createdAt: contact.created_at ? resolveSeedTime(contact.created_at, ctx.now) : null,
      messages: contact.conversation.messages.map((message, index) => ({
        _id: message.uuid ?? seedIds.message(conversationId, index),
        is_from_customer: message.is_from_customer,
        body: message.body,
        content_type: message.content_type,
        media_transcription_pending: message.media_transcription_pending,
        created_at: resolveSeedTime(message.created_at, ctx.now),
      })),
    };
  });
}

/** Creation times: `$set` when the seed gives them, `$setOnInsert` (load time) otherwise. */
function creationTimes(plan: ConversationPlan, now: Date): { set: Fields; setOnInsert: Fields } {
  return plan.createdAt
    ? { set: { created_at: plan.createdAt }, setOnInsert: { updated_at: plan.createdAt } }
    : { set: {}, setOnInsert: { created_at: now, updated_at: now } };
}

export function contactOperations(plans: readonly ConversationPlan[], ctx: SeedContext): UpsertOperation[] {
  return plans.map((plan) => {
    const { contact } = plan;
    const times = creationTimes(plan, ctx.now);
    return upsert(
      byId(ctx, contact.uuid),
      {
        channel_id: plan.channelId,
        first_name: contact.first_name,
        middle_name: contact.middle_name,
        last_name: contact.last_name,
        second_last_name: contact.second_last_name,
        phone: contact.phone ? e164(contact.phone) : null,
        phone_key: contact.phone ? phoneLookupKey(contact.phone) : null,
        chat_user_id: contact.chat_user_id,
        chat_username: contact.chat_username,
        username_key: contact.chat_username ? usernameLookupKey(contact.chat_username) : null,
        acquisition_source: contact.acquisition_source,
        is_tester: contact.is_tester,
        ...times.set,
      },
      times.setOnInsert,
    );
  });
}

export function conversationOperations(
  plans: readonly ConversationPlan[],
  ctx: SeedContext,
  derivedStates: ReadonlyMap<string, ConversationDerivedState>,
): UpsertOperation[] {
  return plans.map((plan) => {
    const { conversation } = plan.contact;
    const times = creationTimes(plan, ctx.now);
    const derived = derivedStates.get(plan.conversationId);
    if (!derived) throw new Error(`no derived state for conversation ${plan.conversationId}`);
    return upsert(
      byId(ctx, plan.conversationId),
      {
        contact_id: plan.contact.uuid,
        contact: contactSnapshotOf({ ...plan.contact, phone: plan.contact.phone ? e164(plan.contact.phone) : null }),
        channel_id: plan.channelId,
        ai_employee_id: conversation.ai_employee,
        mailbox_id: conversation.mailbox,
        tag_ids: conversation.tags,
        inbox_status: conversation.inbox_status,
        is_tester: plan.contact.is_tester,
        ...derived,
        ...times.set,
      },
      times.setOnInsert,
    );
  });
}

export function messageOperations(plans: readonly ConversationPlan[], ctx: SeedContext): UpsertOperation[] {
  return plans.flatMap((plan) =>
    plan.messages.map((message) =>
      upsert(byId(ctx, message._id), {
        conversation_id: plan.conversationId,
        is_from_customer: message.is_from_customer,
        body: message.body,
        content_type: message.content_type,
        status: message.is_from_customer ? 'received' : 'sent',
        media_transcription_pending: message.media_transcription_pending,
        // Tester conversations never reach the provider (SPEC 1.4).
        is_simulated: plan.contact.is_tester,
        created_at: message.created_at,
      }),
    ),
  );
}

/** Payments without created_at are spaced 1 ms apart in file order, so the last one is the latest. */
export function paymentOperations(plans: readonly ConversationPlan[], ctx: SeedContext): UpsertOperation[] {
  return plans.flatMap((plan) => {
    const payments = plan.contact.conversation.payments;
    return payments.map((payment, index) => {
      const fields = {
        conversation_id: plan.conversationId,
        amount: payment.amount,
        currency: payment.currency,
        reference: payment.reference,
        link: payment.link,
        due_date: payment.due_date,
        status: payment.status,
      };
      return payment.created_at
        ? upsert(byId(ctx, payment.uuid), { ...fields, created_at: resolveSeedTime(payment.created_at, ctx.now) })
        : upsert(byId(ctx, payment.uuid), fields, { created_at: new Date(ctx.now.getTime() - (payments.length - 1 - index)) });
    });
  });
}

function channelId(channelIds: ReadonlyMap<string, string>, publicKey: string): string {
  const id = channelIds.get(publicKey);
  if (!id) throw new Error(`channel ${publicKey} was not stored`);
  return id;
}
