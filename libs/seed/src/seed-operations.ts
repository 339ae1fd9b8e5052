import {
  type AiEmployeeSeedFields,
  type ApiTokenSeedFields,
  type BusinessScope,
  type BusinessSeedFields,
  type ChannelSeedFields,
  type SeedUpsert,
  type WebhookEndpointSeed,
  businessScope,
  contactSnapshotOf,
  nameLookupKey,
  phoneLookupKey,
  storedMessagingLimit,
  usernameLookupKey,
} from '@cmsg/dal';
import { foldText, validateAttributeValues } from '@cmsg/contact-filter';
import { hashApiToken } from './api-token';
import type { ConversationDerivedState } from './conversation-derived-state';
import { highestPlaceholder, type AttributeDefinitionSeed, type BusinessSeed, type ContactSeed } from './seed-file.schema';
import { seedIds } from './seed-ids';
import { resolveSeedTime } from './seed-time';

/*
 * Pure builders of what the repositories upsert for one business: `set` carries everything the
 * seed defines, `setOnInsert` what only a first load decides (creation times). Every document is
 * keyed by its id within the business (the repositories add the business to every filter).
 */

type Fields = Record<string, unknown>;

export interface SeedContext {
  readonly scope: BusinessScope;
  readonly now: Date;
}

export function seedContext(businessId: string, now: Date): SeedContext {
  return { scope: businessScope(businessId), now };
}

const e164 = (phone: string) => `+${phoneLookupKey(phone)}`;

function withoutComment<T extends { $comment?: string }>(value: T): Omit<T, '$comment'> {
  const { $comment: _ignored, ...rest } = value;
  return rest;
}

export function businessFields(seed: BusinessSeed, businessId: string): BusinessSeedFields {
  return {
    id: businessId,
    slug: seed.slug,
    name: seed.name,
    timeZone: seed.time_zone,
    visionWalletTokens: seed.vision_wallet_tokens,
    paymentProfile: seed.payment_profile ? withoutComment(seed.payment_profile) : null,
    contactAttributeDefinitions: seed.attribute_definitions.map((definition) => ({ key: definition.key, type: definition.type, options: definition.options ?? [] })),
    consentKeywords: seed.consent_keywords ? { opt_out: seed.consent_keywords.opt_out, opt_in: seed.consent_keywords.opt_in } : null,
  };
}

export function apiTokenFields(seed: BusinessSeed): ApiTokenSeedFields[] {
  return seed.api_tokens.map((token) => ({ id: token.uuid, tokenSha256: hashApiToken(token.token), scopes: token.scopes, revoked: token.revoked }));
}

/** Channels are keyed by public key; the id is derived on first insert only. */
export function channelFields(seed: BusinessSeed, ctx: SeedContext): ChannelSeedFields[] {
  return seed.channels.map((channel) => ({
    publicKey: channel.public_key,
    idOnInsert: seedIds.channel(ctx.scope.businessId, channel.public_key),
    name: channel.name,
    phone: channel.phone ? e164(channel.phone) : '',
    phoneNumberId: channel.phone_number_id,
    accessToken: channel.access_token,
    defaultScheduledTemplate: channel.default_scheduled_template,
    businessAccountId: channel.business_account_id,
    limits: {
      maxMessagesPerSecond: channel.max_messages_per_second,
      messagingLimit: channel.messaging_limit === undefined ? undefined : storedMessagingLimit(channel.messaging_limit),
    },
  }));
}

export function aiEmployeeFields(seed: BusinessSeed): AiEmployeeSeedFields[] {
  return seed.ai_employees.map((employee) => ({
    id: employee.uuid,
    name: employee.name,
    nameKey: nameLookupKey(employee.name),
    model: employee.model,
    instructions: employee.instructions,
    walletTokens: employee.wallet_tokens,
  }));
}

export function tagUpserts(seed: BusinessSeed): SeedUpsert[] {
  return seed.tags.map((tag) => ({ id: tag.uuid, set: { name: tag.name, name_key: nameLookupKey(tag.name), color: tag.color, is_default: tag.is_default } }));
}

export function mailboxCategoryUpserts(seed: BusinessSeed): SeedUpsert[] {
  return seed.mailbox_categories.map((category) => ({ id: category.uuid, set: { name: category.name, name_key: nameLookupKey(category.name) } }));
}

export function mailboxUpserts(seed: BusinessSeed): SeedUpsert[] {
  return seed.mailbox_categories.flatMap((category) =>
    category.mailboxes.map((mailbox) => ({ id: mailbox.uuid, set: { category_id: category.uuid, name: mailbox.name, name_key: nameLookupKey(mailbox.name) } })),
  );
}

export function templateUpserts(seed: BusinessSeed, channelIds: ReadonlyMap<string, string>): SeedUpsert[] {
  return seed.templates.map((template) => ({
    id: template.uuid,
    set: {
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
      provider_template_id: template.provider_template_id,
    },
  }));
}

export function quickReplyUpserts(seed: BusinessSeed): SeedUpsert[] {
  return seed.quick_replies.map((reply) => ({
    id: reply.uuid,
    set: { name: reply.name, name_key: nameLookupKey(reply.name), actions: reply.actions.map((action) => ({ text: action.text })) },
  }));
}

/** The seed's `webhooks` become webhook endpoints, keyed by business and URL. */
export function webhookEndpointSeeds(seed: BusinessSeed, ctx: SeedContext): WebhookEndpointSeed[] {
  return seed.webhooks.map((webhook) => ({ id: seedIds.webhook(ctx.scope.businessId, webhook.url), url: webhook.url, events: [...webhook.events], secret: webhook.secret }));
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

/** Creation times: `set` when the seed gives them, `setOnInsert` (load time) otherwise. */
function creationTimes(plan: ConversationPlan, now: Date): { set: Fields; setOnInsert: Fields } {
  return plan.createdAt
    ? { set: { created_at: plan.createdAt }, setOnInsert: { updated_at: plan.createdAt } }
    : { set: {}, setOnInsert: { created_at: now, updated_at: now } };
}

export function contactUpserts(plans: readonly ConversationPlan[], ctx: SeedContext, derivedStates: ReadonlyMap<string, ConversationDerivedState>, definitions: readonly AttributeDefinitionSeed[]): SeedUpsert[] {
  const attributeDefinitions = definitions.map((definition) => ({ key: definition.key, type: definition.type, options: definition.options ?? [] }));
  return plans.map((plan) => {
    const { contact } = plan;
    const times = creationTimes(plan, ctx.now);
    const consent = (['marketing', 'utility'] as const).flatMap((category) => (contact.consent?.[category] ? [[category, contact.consent[category]] as const] : []));
    return {
      id: contact.uuid,
      set: {
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
        first_name_key: contact.first_name ? foldText(contact.first_name) : null,
        last_name_key: contact.last_name ? foldText(contact.last_name) : null,
        email: contact.email,
        email_key: contact.email ? foldText(contact.email) : null,
        language: contact.language,
        external_id: contact.external_id,
        ...(contact.external_id ? { external_id_key: `${ctx.scope.businessId}:${contact.external_id}` } : {}),
        attributes: validateAttributeValues(attributeDefinitions, contact.attributes).set,
        ...Object.fromEntries(consent.map(([category, state]) => [`consent.${category}`, { status: state!.status, source: state!.status === 'unknown' ? null : 'import', updated_at: ctx.now }])),
        // The copy of its conversation that search reads (CONTRACT 10.1 fields tag, inbox_status, last_inbound_at).
        tag_ids: contact.conversation.tags,
        inbox_status: contact.conversation.inbox_status,
        last_inbound_at: derivedStates.get(plan.conversationId)?.last_inbound_at ?? null,
        ...times.set,
      },
      setOnInsert: { ...times.setOnInsert, revision: 0 },
    };
  });
}

export function conversationUpserts(plans: readonly ConversationPlan[], ctx: SeedContext, derivedStates: ReadonlyMap<string, ConversationDerivedState>): SeedUpsert[] {
  return plans.map((plan) => {
    const { conversation } = plan.contact;
    const times = creationTimes(plan, ctx.now);
    const derived = derivedStates.get(plan.conversationId);
    if (!derived) throw new Error(`no derived state for conversation ${plan.conversationId}`);
    return {
      id: plan.conversationId,
      set: {
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
      setOnInsert: times.setOnInsert,
    };
  });
}

export function messageUpserts(plans: readonly ConversationPlan[]): SeedUpsert[] {
  return plans.flatMap((plan) =>
    plan.messages.map((message) => ({
      id: message._id,
      set: {
        conversation_id: plan.conversationId,
        is_from_customer: message.is_from_customer,
        body: message.body,
        content_type: message.content_type,
        status: message.is_from_customer ? 'received' : 'sent',
        media_transcription_pending: message.media_transcription_pending,
        // Tester conversations never reach the provider (SPEC 1.4).
        is_simulated: plan.contact.is_tester,
        created_at: message.created_at,
      },
    })),
  );
}

/** Payments without created_at are spaced 1 ms apart in file order, so the last one is the latest. */
export function paymentUpserts(plans: readonly ConversationPlan[], ctx: SeedContext): SeedUpsert[] {
  return plans.flatMap((plan) => {
    const payments = plan.contact.conversation.payments;
    return payments.map((payment, index): SeedUpsert => {
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
        ? { id: payment.uuid, set: { ...fields, created_at: resolveSeedTime(payment.created_at, ctx.now) } }
        : { id: payment.uuid, set: fields, setOnInsert: { created_at: new Date(ctx.now.getTime() - (payments.length - 1 - index)) } };
    });
  });
}

function channelId(channelIds: ReadonlyMap<string, string>, publicKey: string): string {
  const id = channelIds.get(publicKey);
  if (!id) throw new Error(`channel ${publicKey} was not stored`);
  return id;
}
