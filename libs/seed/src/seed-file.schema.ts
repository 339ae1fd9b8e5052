import { z } from 'zod';
import {
  ALL_EVENT_TYPES,
  API_TOKEN_SCOPES,
  EVENT_TYPES,
  MAX_MESSAGES_PER_SECOND,
  MESSAGING_LIMIT_TIERS,
  MIN_MESSAGES_PER_SECOND,
  UNLIMITED_MESSAGING,
  isMessagingLimit,
} from '@cmsg/api-schemas';
import { WEBHOOK_ENDPOINT_LIMIT, phoneLookupKey } from '@cmsg/dal';
import { ATTRIBUTE_TYPES, MAX_ATTRIBUTE_DEFINITIONS, validateAttributeDefinition, validateAttributeValues } from '@cmsg/contact-filter';
import { API_TOKEN_PATTERN } from './api-token';
import { SEED_TIME_HINT, isSeedTime } from './seed-time';

/*
 * The seed file of CONTRACT section 8: one format for demos, tests and imports.
 *
 * - `channel` (templates, contacts) is a channel public key; `ai_employee` and `mailbox` are
 *   uuids; `tags` is a list of tag uuids; `default_scheduled_template` is a template name of the
 *   same channel; `token` is the plaintext token (stored as its SHA-256 only); a token's
 *   `scopes` (conversations:read, conversations:write, webhooks:manage) default to all three.
 * - Times: ISO 8601 with offset, or relative to the load (`now`, `now-2h`, `now+30m`, `now-3d`;
 *   units s m h d w). A file with only absolute times is a fixed point: loading it twice changes
 *   nothing. Relative times are resolved again on every load, so a demo stays "fresh".
 * - Optional ids: a business without `uuid` keeps the id it already has for its slug, or gets one
 *   derived from the slug; a conversation without `uuid` gets one derived from its contact, a
 *   message one derived from its conversation and position. Everything else names its uuid.
 * - Unknown keys are errors (typos in hand-written files must not pass silently); every object
 *   may carry a `$comment` string, which is ignored.
 * - A conversation's window, last message, unread count and sort key follow from its messages.
 */

const comment = { $comment: z.string().optional() };
function seedObject<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...comment, ...shape });
}

const uuid = z.uuid().transform((value) => value.toLowerCase());
const nonEmpty = z.string().trim().min(1);
const optionalText = z.string().nullable().default(null);
const seedTime = z.string().refine(isSeedTime, { message: `expected ${SEED_TIME_HINT}` });

const timeZone = z.string().transform((value, ctx) => {
  try {
    // Canonical spelling (america/mexico_city -> America/Mexico_City); throws for non-IANA names.
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    ctx.addIssue({ code: 'custom', message: `unknown IANA time zone: ${value}` });
    return z.NEVER;
  }
});

const phone = z.string().refine((value) => /^\+?[\d\s().-]+$/.test(value) && /^\d{6,15}$/.test(phoneLookupKey(value)), {
  message: 'expected a phone number of 6 to 15 digits (E.164, e.g. +5215512345678; spaces, dots, dashes and parentheses allowed)',
});

export const apiTokenSeedSchema = seedObject({
  uuid,
  token: z.string().regex(API_TOKEN_PATTERN, { message: 'expected cmsg_ followed by 64 lowercase hex characters' }),
  // CONTRACT 9.3: what the token may do; all three unless the file names fewer.
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { message: `expected one of ${API_TOKEN_SCOPES.join(', ')}` }))
    .min(1, { message: 'a token needs at least one scope' })
    .transform((scopes) => API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope)))
    .default([...API_TOKEN_SCOPES]),
  revoked: z.boolean().default(false),
});

export const channelSeedSchema = seedObject({
  public_key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, { message: 'expected 1..128 letters, digits, _ . -' }),
  name: nonEmpty,
  phone: phone.optional(),
  phone_number_id: nonEmpty,
  access_token: z.string().default(''),
  default_scheduled_template: nonEmpty.nullable().default(null),
  // The WhatsApp Business Account id: how template status webhooks find the channel's templates.
  business_account_id: nonEmpty.nullable().default(null),
  // CONTRACT 10.5; absent: a new channel gets the defaults, an existing one keeps its values.
  max_messages_per_second: z.number().int().min(MIN_MESSAGES_PER_SECOND).max(MAX_MESSAGES_PER_SECOND).optional(),
  messaging_limit: z
    .union([z.literal(UNLIMITED_MESSAGING), z.number()])
    .refine(isMessagingLimit, { message: `expected one of ${MESSAGING_LIMIT_TIERS.join(', ')} or "${UNLIMITED_MESSAGING}"` })
    .optional(),
});

export const aiEmployeeSeedSchema = seedObject({
  uuid,
  name: nonEmpty,
  model: nonEmpty,
  instructions: z.string().default(''),
  wallet_tokens: z.number().int().nonnegative().default(0),
});

export const tagSeedSchema = seedObject({
  uuid,
  name: nonEmpty,
  color: z.string().default(''),
  is_default: z.boolean().default(false),
});

export const mailboxCategorySeedSchema = seedObject({
  uuid,
  name: nonEmpty,
  mailboxes: z.array(seedObject({ uuid, name: nonEmpty })).default([]),
});

const templateButtonSchema = seedObject({
  type: z.enum(['quick_reply', 'url', 'phone_number', 'copy_code']),
  text: nonEmpty,
  url: z.url().optional(),
  phone_number: phone.optional(),
});

export const templateSeedSchema = seedObject({
  uuid,
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, { message: 'expected lowercase letters, digits and underscores (the chat platform rule)' }),
  language: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'expected a language code such as es, en_US, es_MX' }),
  status: z.enum(['approved', 'pending', 'rejected', 'paused', 'disabled']),
  category: z.enum(['marketing', 'utility', 'authentication']),
  body: z.string().min(1).max(1024),
  // Defaults to the highest {{n}} placeholder of the body.
  variable_count: z.number().int().nonnegative().optional(),
  header_type: z.enum(['text', 'image', 'video', 'document', 'location']).nullable().default(null),
  buttons: z.array(templateButtonSchema).max(10).default([]),
  is_fake: z.boolean().default(false),
  channel: nonEmpty,
  // The provider's id (message_template_id of its status webhooks); without it they match by name and language.
  provider_template_id: nonEmpty.nullable().default(null),
});

export const quickReplySeedSchema = seedObject({
  uuid,
  name: nonEmpty,
  actions: z.array(seedObject({ text: z.string().min(1).max(4096) })).default([]),
});

/** What a seeded endpoint subscribes to when the file names no events (the action webhooks of CONTRACT 4). */
export const DEFAULT_SEED_WEBHOOK_EVENTS = ['action.failed', 'action_group.finished'] as const;

/** A webhook endpoint (CONTRACT 9.2): its secret is used as given, `whsec_<base64>` or any other string (docs/webhooks.md). */
export const webhookSeedSchema = seedObject({
  url: z.url({ protocol: /^https?$/ }),
  secret: z.string().min(16, { message: 'expected a secret of at least 16 characters' }),
  events: z
    .array(z.enum([...EVENT_TYPES, ALL_EVENT_TYPES]))
    .min(1)
    .default([...DEFAULT_SEED_WEBHOOK_EVENTS]),
});

export const paymentSeedSchema = seedObject({
  uuid,
  amount: z
    .union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/, { message: 'expected a decimal amount such as 1250.00' })])
    .transform(String)
    .nullable()
    .default(null),
  currency: z.string().regex(/^[A-Z]{3}$/, { message: 'expected an ISO 4217 code such as MXN' }).nullable().default(null),
  reference: optionalText,
  link: z.url().nullable().default(null),
  due_date: z.iso.date().nullable().default(null),
  status: z.enum(['open', 'paid', 'cancelled', 'expired']).default('open'),
  // Beyond CONTRACT 8: orders payments ("latest open payment"); defaults to the load time.
  created_at: seedTime.optional(),
});

export const messageSeedSchema = seedObject({
  uuid: uuid.optional(),
  is_from_customer: z.boolean(),
  body: z.string().max(4096).default(''),
  content_type: z.string().regex(/^[a-z][a-z_]*$/, { message: 'expected a lowercase content type such as text, image, audio' }).default('text'),
  created_at: seedTime,
  media_transcription_pending: z.boolean().default(false),
});

export const conversationSeedSchema = seedObject({
  uuid: uuid.optional(),
  ai_employee: uuid.nullable().default(null),
  mailbox: uuid.nullable().default(null),
  tags: z.array(uuid).default([]),
  inbox_status: z.enum(['pending', 'resolved']).default('resolved'),
  messages: z.array(messageSeedSchema).default([]),
  payments: z.array(paymentSeedSchema).default([]),
});

const consentSeedSchema = seedObject({ status: z.enum(['opted_in', 'opted_out', 'unknown']) });

export const attributeDefinitionSeedSchema = seedObject({ key: nonEmpty, type: z.enum(ATTRIBUTE_TYPES), options: z.array(nonEmpty).optional() });

/** A business's own keyword lists (CONTRACT 10.2), replacing the defaults of either category. */
const consentKeywordsSeedSchema = seedObject({ opt_out: z.array(nonEmpty).min(1).optional(), opt_in: z.array(nonEmpty).min(1).optional() });

export const contactSeedSchema = seedObject({
  uuid,
  channel: nonEmpty,
  first_name: optionalText,
  middle_name: optionalText,
  last_name: optionalText,
  second_last_name: optionalText,
  phone: phone.nullable().default(null),
  chat_user_id: nonEmpty.nullable().default(null),
  chat_username: nonEmpty
    .transform((value) => value.replace(/^@/, ''))
    .nullable()
    .default(null),
  acquisition_source: optionalText,
  is_tester: z.boolean().default(false),
  created_at: seedTime.optional(),
  conversation: conversationSeedSchema.prefault({}),
  // From version 0.4.0 (CONTRACT 10): checked against the business's attribute_definitions; consent recorded with source import.
  email: z.email().nullable().default(null),
  language: optionalText,
  external_id: nonEmpty.nullable().default(null),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  consent: seedObject({ marketing: consentSeedSchema.optional(), utility: consentSeedSchema.optional() }).optional(),
});

export const paymentProfileSeedSchema = seedObject({
  bank_name: nonEmpty,
  account_holder: nonEmpty,
  account_number: nonEmpty.optional(),
  clabe: z.string().regex(/^\d{18}$/, { message: 'expected an 18-digit CLABE' }).optional(),
  iban: nonEmpty.optional(),
  swift: nonEmpty.optional(),
  instructions: z.string().optional(),
});

export const businessSeedSchema = seedObject({
  uuid: uuid.optional(),
  slug: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'expected 1..64 letters, digits, _ or -, starting with a letter or digit' }),
  name: nonEmpty,
  time_zone: timeZone.default('UTC'),
  api_tokens: z.array(apiTokenSeedSchema).default([]),
  channels: z.array(channelSeedSchema).default([]),
  ai_employees: z.array(aiEmployeeSeedSchema).default([]),
  vision_wallet_tokens: z.number().int().nonnegative().default(0),
  tags: z.array(tagSeedSchema).default([]),
  mailbox_categories: z.array(mailboxCategorySeedSchema).default([]),
  templates: z.array(templateSeedSchema).default([]),
  quick_replies: z.array(quickReplySeedSchema).default([]),
  webhooks: z.array(webhookSeedSchema).max(WEBHOOK_ENDPOINT_LIMIT).default([]),
  payment_profile: paymentProfileSeedSchema.nullable().default(null),
  attribute_definitions: z.array(attributeDefinitionSeedSchema).max(MAX_ATTRIBUTE_DEFINITIONS).default([]),
  consent_keywords: consentKeywordsSeedSchema.nullable().default(null),
  contacts: z.array(contactSeedSchema).default([]),
});

export const seedFileSchema = seedObject({ businesses: z.array(businessSeedSchema).min(1) }).superRefine(checkReferences);

export type SeedFile = z.output<typeof seedFileSchema>;
export type SeedFileInput = z.input<typeof seedFileSchema>;
export type BusinessSeed = SeedFile['businesses'][number];
export type ContactSeed = BusinessSeed['contacts'][number];
export type AttributeDefinitionSeed = BusinessSeed['attribute_definitions'][number];
export type MessageSeed = ContactSeed['conversation']['messages'][number];

/** Thrown by parseSeedFile; the message lists every problem with its JSON path. */
export class SeedFileError extends Error {
  constructor(readonly issues: readonly string[]) {
    super(`invalid seed file:\n  ${issues.join('\n  ')}`);
    this.name = 'SeedFileError';
  }
}

export function parseSeedFile(input: unknown): SeedFile {
  const result = seedFileSchema.safeParse(input);
  if (result.success) return result.data;
  throw new SeedFileError(result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`));
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '') || '(root)';
}

/** Ids are global (_id of each collection), so uniqueness is checked across the whole file. */
function checkReferences(file: { businesses: z.output<typeof businessSeedSchema>[] }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>();
  const unique = (kind: string, key: string, path: PropertyKey[]) => {
    const id = `${kind}:${key}`;
    const first = seen.get(id);
    if (first) ctx.addIssue({ code: 'custom', path, message: `duplicate ${kind} ${key} (first at ${first})` });
    else seen.set(id, formatPath(path));
  };
  const mustExist = (known: Set<string>, kind: string, key: string, path: PropertyKey[]) => {
    if (!known.has(key)) ctx.addIssue({ code: 'custom', path, message: `unknown ${kind} ${key} in this business` });
  };

  file.businesses.forEach((business, b) => {
    const at = (...rest: PropertyKey[]) => ['businesses', b, ...rest];
    unique('business slug', business.slug.toLowerCase(), at('slug'));
    if (business.uuid) unique('business uuid', business.uuid, at('uuid'));
    business.api_tokens.forEach((token, i) => {
      unique('api token uuid', token.uuid, at('api_tokens', i, 'uuid'));
      unique('api token', token.token, at('api_tokens', i, 'token'));
    });
    business.channels.forEach((channel, i) => {
      unique('channel public_key', `${business.slug}/${channel.public_key}`, at('channels', i, 'public_key'));
      unique('channel phone_number_id', channel.phone_number_id, at('channels', i, 'phone_number_id'));
    });
    const channelKeys = new Set(business.channels.map((channel) => channel.public_key));
    business.ai_employees.forEach((employee, i) => unique('ai employee uuid', employee.uuid, at('ai_employees', i, 'uuid')));
    business.tags.forEach((tag, i) => unique('tag uuid', tag.uuid, at('tags', i, 'uuid')));
    business.mailbox_categories.forEach((category, i) => {
      unique('mailbox category uuid', category.uuid, at('mailbox_categories', i, 'uuid'));
      category.mailboxes.forEach((mailbox, j) => unique('mailbox uuid', mailbox.uuid, at('mailbox_categories', i, 'mailboxes', j, 'uuid')));
    });
    business.templates.forEach((template, i) => {
      unique('template uuid', template.uuid, at('templates', i, 'uuid'));
      mustExist(channelKeys, 'channel', template.channel, at('templates', i, 'channel'));
      const highest = highestPlaceholder(template.body);
      if (template.variable_count !== undefined && template.variable_count < highest) {
        ctx.addIssue({ code: 'custom', path: at('templates', i, 'variable_count'), message: `the body uses {{${highest}}}` });
      }
    });
    business.channels.forEach((channel, i) => {
      const name = channel.default_scheduled_template;
      if (name && !business.templates.some((template) => template.name === name && template.channel === channel.public_key)) {
        ctx.addIssue({ code: 'custom', path: at('channels', i, 'default_scheduled_template'), message: `no template named ${name} on channel ${channel.public_key}` });
      }
    });
    business.quick_replies.forEach((reply, i) => unique('quick reply uuid', reply.uuid, at('quick_replies', i, 'uuid')));
    business.webhooks.forEach((webhook, i) => unique('webhook url', `${business.slug} ${webhook.url}`, at('webhooks', i, 'url')));

    const employees = new Set(business.ai_employees.map((employee) => employee.uuid));
    const mailboxes = new Set(business.mailbox_categories.flatMap((category) => category.mailboxes.map((mailbox) => mailbox.uuid)));
    const tags = new Set(business.tags.map((tag) => tag.uuid));
    const definitions = attributeDefinitionsOf(business.attribute_definitions, (index, message) => ctx.addIssue({ code: 'custom', path: at('attribute_definitions', index), message }));
    business.contacts.forEach((contact, i) => {
      const path = (...rest: PropertyKey[]) => at('contacts', i, ...rest);
      unique('contact uuid', contact.uuid, path('uuid'));
      if (contact.external_id) unique('contact external_id', `${business.slug}/${contact.external_id}`, path('external_id'));
      const attributeProblem = problemOf(() => validateAttributeValues(definitions, contact.attributes));
      if (attributeProblem) ctx.addIssue({ code: 'custom', path: path('attributes'), message: attributeProblem });
      mustExist(channelKeys, 'channel', contact.channel, path('channel'));
      if (!contact.phone && !contact.chat_user_id) {
        ctx.addIssue({ code: 'custom', path: path(), message: 'a contact needs a phone or a chat_user_id' });
      }
      const conversation = contact.conversation;
      if (conversation.uuid) unique('conversation uuid', conversation.uuid, path('conversation', 'uuid'));
      if (conversation.ai_employee) mustExist(employees, 'ai employee', conversation.ai_employee, path('conversation', 'ai_employee'));
      if (conversation.mailbox) mustExist(mailboxes, 'mailbox', conversation.mailbox, path('conversation', 'mailbox'));
      conversation.tags.forEach((tag, t) => mustExist(tags, 'tag', tag, path('conversation', 'tags', t)));
      conversation.messages.forEach((message, m) => {
        if (message.uuid) unique('message uuid', message.uuid, path('conversation', 'messages', m, 'uuid'));
        if (message.media_transcription_pending && !message.is_from_customer) {
          ctx.addIssue({ code: 'custom', path: path('conversation', 'messages', m, 'media_transcription_pending'), message: 'only customer messages await transcription' });
        }
      });
      conversation.payments.forEach((payment, p) => unique('payment uuid', payment.uuid, path('conversation', 'payments', p, 'uuid')));
    });
  });
}

export function highestPlaceholder(body: string): number {
  let highest = 0;
  for (const match of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** The business's definitions that are valid; each invalid or repeated one is reported. */
function attributeDefinitionsOf(seeds: readonly z.output<typeof attributeDefinitionSeedSchema>[], report: (index: number, message: string) => void) {
  const keys = new Set<string>();
  return seeds.flatMap((seed, index) => {
    if (keys.has(seed.key)) {
      report(index, `attribute ${seed.key} is defined twice`);
      return [];
    }
    keys.add(seed.key);
    try {
      return [validateAttributeDefinition({ key: seed.key, type: seed.type, options: seed.options })];
    } catch (error) {
      report(index, (error as Error).message);
      return [];
    }
  });
}

function problemOf(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
