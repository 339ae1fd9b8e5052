import { Schema, model, type InferSchemaType, type Model } from 'mongoose';

/*
 * Every document's _id is its public UUID (a string). Tenant-scoped collections carry business_id.
 * FerretDB 1.x constraints (NOTES-INFRA.md): no TTL/partial indexes, no collation, no transactions;
 * expiry is a date field swept by a job, uniqueness is plain unique indexes or compare-and-set.
 */
const base = { _id: { type: String, required: true }, business_id: { type: String, required: true } } as const;
const options = { versionKey: false, timestamps: false } as const;

const businessSchema = new Schema(
  {
    _id: { type: String, required: true },
    slug: { type: String, required: true },
    slug_lower: { type: String, required: true },
    name: { type: String, required: true },
    time_zone: { type: String, required: true, default: 'UTC' },
    tester_clock_offset_ms: { type: Number, required: true, default: 0 },
    // Vision tokens funded (seed, top-ups); the balance is this minus the wallet ledger's charges.
    vision_wallet_funded_tokens: { type: Number, required: true, default: 0 },
    // Bytes of uploaded files (pending and confirmed) the business may keep; 0 disables uploads.
    storage_quota_bytes: { type: Number, required: true, default: 1024 * 1024 * 1024 },
    payment_profile: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  options,
);
// Slug resolution on every request (case-insensitive).
businessSchema.index({ slug_lower: 1 }, { unique: true });

const apiTokenSchema = new Schema(
  {
    ...base,
    token_sha256: { type: String, required: true },
    revoked: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    revoked_at: { type: Date, default: null },
  },
  options,
);
// Token authentication: hash lookup.
apiTokenSchema.index({ token_sha256: 1 }, { unique: true });

const channelSchema = new Schema(
  {
    ...base,
    public_key: { type: String, required: true },
    name: { type: String, required: true },
    phone: { type: String, default: '' },
    phone_number_id: { type: String, required: true },
    access_token: { type: String, default: '' },
    default_scheduled_template: { type: String, default: null },
    status: { type: String, required: true, default: 'connected' },
  },
  options,
);
// Reference `channel` member and channel listing.
channelSchema.index({ business_id: 1, public_key: 1 }, { unique: true });
// Inbound webhooks resolve the channel by the provider's phone_number_id.
channelSchema.index({ phone_number_id: 1 }, { unique: true });

const contactSchema = new Schema(
  {
    ...base,
    channel_id: { type: String, required: true },
    first_name: { type: String, default: null },
    middle_name: { type: String, default: null },
    last_name: { type: String, default: null },
    second_last_name: { type: String, default: null },
    profile_name: { type: String, default: null },
    phone: { type: String, default: null },
    phone_key: { type: String, default: null },
    chat_user_id: { type: String, default: null },
    chat_username: { type: String, default: null },
    username_key: { type: String, default: null },
    acquisition_source: { type: String, default: null },
    is_tester: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  options,
);
// GET /contacts and /tester/contacts: created_at desc, uuid tiebreak.
contactSchema.index({ business_id: 1, created_at: -1, _id: -1 });
// Conversation reference by phone / chat_user_id / username.
contactSchema.index({ business_id: 1, phone_key: 1 });
contactSchema.index({ business_id: 1, chat_user_id: 1 });
contactSchema.index({ business_id: 1, username_key: 1 });

const lastMessageSchema = new Schema(
  {
    uuid: { type: String, required: true },
    body: { type: String, default: '' },
    content_type: { type: String, required: true },
    is_from_customer: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
  },
  { _id: false },
);

const conversationSchema = new Schema(
  {
    ...base,
    contact_id: { type: String, required: true },
    // contactSnapshotOf(contact): list pages read it instead of joining contacts.
    contact: {
      type: new Schema(
        { name: { type: String, default: null }, profile_name: { type: String, default: null }, phone: { type: String, default: null }, chat_user_id: { type: String, default: null } },
        { _id: false },
      ),
      default: null,
    },
    channel_id: { type: String, required: true },
    ai_employee_id: { type: String, default: null },
    mailbox_id: { type: String, default: null },
    tag_ids: { type: [String], default: [] },
    inbox_status: { type: String, required: true, default: 'resolved' },
    pending_reason: { type: String, default: null },
    last_message: { type: lastMessageSchema, default: null },
    last_inbound_at: { type: Date, default: null },
    // The last inbound message applied to the counters: a redelivery of it does not count twice.
    last_inbound_message_id: { type: String, default: null },
    unread_count: { type: Number, required: true, default: 0 },
    media_awaiting_transcription: { type: Number, required: true, default: 0 },
    // The one pending scheduled message (compare-and-set keeps it to one per conversation).
    pending_schedule_id: { type: String, default: null },
    is_tester: { type: Boolean, required: true, default: false },
    // Events written in the same atomic update as the state change they announce, removed once
    // published: a crash between the write and the publish delays the event, never loses it.
    outbox: {
      type: [
        new Schema(
          { id: { type: String, required: true }, type: { type: String, required: true }, payload: { type: Schema.Types.Mixed, required: true }, created_at: { type: Date, required: true } },
          { _id: false },
        ),
      ],
      default: [],
    },
    // last_message_at, or created_at while there is no message: the list's sort key.
    sort_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  options,
);
// GET /conversations: keyset pagination on (sort_at, _id).
conversationSchema.index({ business_id: 1, sort_at: -1, _id: -1 });
// Outbox relay: conversations with unpublished events.
conversationSchema.index({ 'outbox.created_at': 1 });
// A contact has exactly one conversation.
conversationSchema.index({ business_id: 1, contact_id: 1 }, { unique: true });

const messageSchema = new Schema(
  {
    ...base,
    conversation_id: { type: String, required: true },
    is_from_customer: { type: Boolean, required: true },
    body: { type: String, default: '' },
    content_type: { type: String, required: true, default: 'text' },
    status: { type: String, required: true, default: 'received' },
    media_transcription_pending: { type: Boolean, required: true, default: false },
    provider_message_id: { type: String, default: null },
    is_simulated: { type: Boolean, required: true, default: false },
    created_at: { type: Date, required: true },
    // Outbound only: who sent it (api_token | ai_employee | system).
    author: {
      type: new Schema({ type: { type: String, required: true }, uuid: { type: String, default: null } }, { _id: false }),
      default: null,
    },
    // Outbound sends are exactly-once per operation: the _id derives from (operation_id, part), the
    // send is recorded as `sending` before the provider call and settled to sent | failed after it.
    operation_id: { type: String, default: null },
    operation_part: { type: Number, default: null },
    operation_parts: { type: Number, default: null },
    sending_started_at: { type: Date, default: null },
    error: { type: new Schema({ code: String, message: String }, { _id: false }), default: null },
    // Inbound media: where its bytes are (a file of module inbound_media) and how its transcription went.
    media: {
      type: new Schema(
        {
          provider_media_id: { type: String, required: true },
          mime_type: { type: String, required: true },
          file_uuid: { type: String, default: null },
          file_name: { type: String, default: null },
          size: { type: Number, default: null },
          // pending | transcribed | untranscribable | failed
          transcription_status: { type: String, required: true, default: 'pending' },
          transcription_error: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    // What the AI reads instead of the media (image description or speech to text).
    transcription: { type: String, default: null },
    // Inbound: the conversation counters were applied / the AI run was queued (redeliveries skip them).
    ingest: { type: new Schema({ conversation_applied: Boolean, ai_run_queued: Boolean }, { _id: false }), default: null },
    // Outbound: last delivery status the provider reported (sent | delivered | read | failed) and when.
    status_at: { type: Date, default: null },
  },
  options,
);
// Recent timeline of a conversation (AI context, tester message list).
messageSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });
// Delivery status webhooks find the outbound message by the provider's id.
messageSchema.index({ business_id: 1, provider_message_id: 1 });

const timelineEventSchema = new Schema(
  {
    ...base,
    conversation_id: { type: String, required: true },
    kind: { type: String, required: true },
    body: { type: String, default: null },
    data: { type: Schema.Types.Mixed, default: null },
    author: {
      type: new Schema({ type: { type: String, required: true }, uuid: { type: String, default: null } }, { _id: false }),
      required: true,
    },
    created_at: { type: Date, required: true },
  },
  options,
);
// Timeline of a conversation in order.
timelineEventSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });

const tagSchema = new Schema(
  {
    ...base,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    color: { type: String, default: '' },
    is_default: { type: Boolean, required: true, default: false },
  },
  options,
);
// Tag reference by name.
tagSchema.index({ business_id: 1, name_key: 1 });

const mailboxCategorySchema = new Schema({ ...base, name: { type: String, required: true }, name_key: { type: String, required: true } }, options);
// Category reference by name.
mailboxCategorySchema.index({ business_id: 1, name_key: 1 });

const mailboxSchema = new Schema(
  { ...base, category_id: { type: String, required: true }, name: { type: String, required: true }, name_key: { type: String, required: true } },
  options,
);
// Mailbox reference by name; first mailbox of a category by name.
mailboxSchema.index({ business_id: 1, name_key: 1 });
mailboxSchema.index({ business_id: 1, category_id: 1, name_key: 1 });

const aiEmployeeSchema = new Schema(
  {
    ...base,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    model: { type: String, required: true },
    instructions: { type: String, default: '' },
    // Tokens funded (seed, top-ups); the balance is this minus the wallet ledger's charges.
    wallet_funded_tokens: { type: Number, required: true, default: 0 },
    // An explicit block; an empty wallet is blocked without it.
    wallet_blocked: { type: Boolean, required: true, default: false },
  },
  options,
);
// AI employee reference by name.
aiEmployeeSchema.index({ business_id: 1, name_key: 1 });

const templateSchema = new Schema(
  {
    ...base,
    channel_id: { type: String, required: true },
    name: { type: String, required: true },
    language: { type: String, required: true },
    status: { type: String, required: true },
    category: { type: String, required: true },
    body: { type: String, required: true },
    variable_count: { type: Number, required: true, default: 0 },
    header_type: { type: String, default: null },
    buttons: { type: [Schema.Types.Mixed], default: [] },
    is_fake: { type: Boolean, required: true, default: false },
  },
  options,
);
// Template reference by name and language.
templateSchema.index({ business_id: 1, name: 1, language: 1 });

const quickReplySchema = new Schema(
  {
    ...base,
    name: { type: String, required: true },
    name_key: { type: String, required: true },
    actions: { type: [new Schema({ text: { type: String, required: true } }, { _id: false })], default: [] },
  },
  options,
);
// Quick reply reference by name.
quickReplySchema.index({ business_id: 1, name_key: 1 });

const webhookSchema = new Schema(
  { ...base, url: { type: String, required: true }, secret: { type: String, required: true }, events: { type: [String], default: [] } },
  options,
);
// Fan-out of one event type to a business's endpoints.
webhookSchema.index({ business_id: 1 });

const paymentSchema = new Schema(
  {
    ...base,
    conversation_id: { type: String, required: true },
    amount: { type: String, default: null },
    currency: { type: String, default: null },
    reference: { type: String, default: null },
    link: { type: String, default: null },
    due_date: { type: String, default: null },
    status: { type: String, required: true, default: 'open' },
    created_at: { type: Date, required: true },
  },
  options,
);
// Latest open payment of a conversation.
paymentSchema.index({ business_id: 1, conversation_id: 1, created_at: -1 });

const scheduledMessageSchema = new Schema(
  {
    ...base,
    conversation_id: { type: String, required: true },
    // pending | cancelled | sent | failed
    status: { type: String, required: true },
    executor_kind: { type: String, required: true },
    ai_employee_id: { type: String, default: null },
    reason: { type: String, default: null },
    // Fallback (AI branch) or required window-closed template (human branch).
    template_id: { type: String, default: null },
    message_kind: { type: String, default: null },
    payload: { type: Schema.Types.Mixed, default: null },
    template_variables: { type: [Schema.Types.Mixed], default: [] },
    template_header: { type: Schema.Types.Mixed, default: null },
    template_button_parameters: { type: [Schema.Types.Mixed], default: [] },
    schedule_at: { type: Date, required: true },
    // scheduleDueMinute(schedule_at) (@cmsg/conversation-commands): the firer's equality lookup key.
    due_minute: { type: String, default: null },
    cancel_on_customer_reply: { type: Boolean, required: true, default: false },
    is_tester: { type: Boolean, required: true, default: false },
    created_by_token_id: { type: String, default: null },
    author: {
      type: new Schema({ type: { type: String, required: true }, uuid: { type: String, default: null } }, { _id: false }),
      required: true,
    },
    error: { type: new Schema({ code: String, message: String }, { _id: false }), default: null },
    history: { type: [Schema.Types.Mixed], default: [] },
    fire_lease_until: { type: Date, default: null },
    fired_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    // The request's local date and time and the business time zone it was read in.
    schedule_local: { type: new Schema({ date: String, time: String, time_zone: String }, { _id: false }), default: null },
    // Firing (@cmsg/conversation-commands lifecycle): the replica holding the lease, how often the
    // command was produced, the delivery path chosen once at execution, the context note written.
    fire_owner: { type: String, default: null },
    fire_attempts: { type: Number, required: true, default: 0 },
    delivery: { type: String, default: null },
    note_id: { type: String, default: null },
  },
  options,
);
// Due schedules: pending ones by firing time, and by minute bucket.
scheduledMessageSchema.index({ status: 1, schedule_at: 1 });
scheduledMessageSchema.index({ due_minute: 1, status: 1 });
// Schedules of a conversation.
scheduledMessageSchema.index({ business_id: 1, conversation_id: 1 });

/*
 * Coordination of scheduled messages. FerretDB 1.x applies updates as read-modify-write of the whole
 * document without isolation: concurrent findOneAndUpdate / updateOne on one document can both
 * "match" and the last write wins (lost updates), while an insert into a unique _id has exactly one
 * winner. So every decision that must be taken once is an insert with a deterministic _id:
 * `schedule_claims` (fate, firing attempts, delivery path, outcome of a schedule) and
 * `conversation_schedule_slots` (an append-only log per conversation whose latest entry names its
 * one pending schedule; conversation.pending_schedule_id mirrors it).
 */
const scheduleClaimSchema = new Schema(
  {
    // `<kind>:<schedule uuid>[:<attempt>]`
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    schedule_id: { type: String, required: true },
    kind: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  options,
);
// Claims of a schedule (its record view and the firer's checks).
scheduleClaimSchema.index({ schedule_id: 1 });

const conversationScheduleSlotSchema = new Schema(
  {
    // `<conversation uuid>:<seq>`: two writers of the same seq, one winner.
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    seq: { type: Number, required: true },
    schedule_id: { type: String, default: null },
    previous_schedule_id: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  options,
);
// Latest slot of a conversation.
conversationScheduleSlotSchema.index({ conversation_id: 1, seq: -1 });

/*
 * Who owns a conversation and its inbox status, each as an append-only log per conversation (the
 * pattern of conversation_schedule_slots): entry `<conversation>:<field>:<seq>` is written only by
 * the one writer that read entry seq - 1, so every change is decided knowing the value it replaces
 * and a change to the value already there is never written twice (one timeline event, one
 * broadcast per real change). conversation.ai_employee_id / inbox_status / pending_reason mirror
 * the latest entry; before a conversation's first change the mirror is the value (seq 0).
 */
const conversationStateLogSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    field: { type: String, enum: ['owner', 'inbox_status'], required: true },
    seq: { type: Number, required: true },
    // owner: the AI employee id or null (human team); inbox_status: pending | resolved.
    value: { type: String, default: null },
    previous: { type: String, default: null },
    // inbox_status: the pending reason and the announcing event id.
    data: { type: Schema.Types.Mixed, default: null },
    actor: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
  },
  options,
);
// Latest entry of a conversation's field.
conversationStateLogSchema.index({ conversation_id: 1, field: 1, seq: -1 });

/*
 * Conversation events waiting to be published (topic conversation-events), one document per event
 * (_id = event id), inserted by the one writer of the change it announces and deleted once
 * published (a deleteOne is exclusive on FerretDB; an array `$push`/`$pull` on the conversation
 * can be lost to a concurrent update of the same conversation). The relay takes a stale event by
 * inserting a claim `<event id>:<lease window>` into conversation_outbox_claims.
 */
const conversationOutboxSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    conversation_id: { type: String, required: true },
    type: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  options,
);
// Events of a conversation (flush after a change); stale events (relay).
conversationOutboxSchema.index({ conversation_id: 1 });
conversationOutboxSchema.index({ created_at: 1 });

const conversationOutboxClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    event_id: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  options,
);
// Sweep of old claims.
conversationOutboxClaimSchema.index({ created_at: 1 });

/*
 * Advances of a business's tester clock as an append-only log (`<business>:<seq>`, inserted only by
 * the writer that read entry seq - 1; a concurrent `$inc` loses advances on FerretDB 1.x). Each
 * entry holds the resulting offset; business.tester_clock_offset_ms mirrors the latest.
 */
const testerClockAdvanceSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    seq: { type: Number, required: true },
    advance_ms: { type: Number, required: true },
    offset_ms: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  options,
);
// Latest advance of a business.
testerClockAdvanceSchema.index({ business_id: 1, seq: -1 });

/*
 * Token wallets (AI employees, business vision) as an append-only ledger of charges, one log per
 * wallet: entry `<wallet>:<seq>` is inserted only by the one writer that read entry seq - 1, so
 * every charge is decided knowing exactly the charges before it (an `$inc` on FerretDB 1.x loses
 * concurrent updates). `charged_total` is the running sum; the balance is the funded amount minus it.
 */
const walletLedgerSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    wallet_id: { type: String, required: true },
    seq: { type: Number, required: true },
    // Idempotency key of the charge (a retried charge finds its entry and is not applied again).
    operation_id: { type: String, required: true },
    tokens: { type: Number, required: true },
    charged_total: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  options,
);
// Latest entry of a wallet; a charge by its operation id.
walletLedgerSchema.index({ wallet_id: 1, seq: -1 });
walletLedgerSchema.index({ wallet_id: 1, operation_id: 1 });

export const BusinessModel = model('Business', businessSchema, 'businesses');
export const ApiTokenModel = model('ApiToken', apiTokenSchema, 'api_tokens');
export const ChannelModel = model('Channel', channelSchema, 'channels');
export const ContactModel = model('Contact', contactSchema, 'contacts');
export const ConversationModel = model('Conversation', conversationSchema, 'conversations');
export const MessageModel = model('Message', messageSchema, 'messages');
export const TimelineEventModel = model('TimelineEvent', timelineEventSchema, 'timeline_events');
export const TagModel = model('Tag', tagSchema, 'tags');
export const MailboxCategoryModel = model('MailboxCategory', mailboxCategorySchema, 'mailbox_categories');
export const MailboxModel = model('Mailbox', mailboxSchema, 'mailboxes');
export const AiEmployeeModel = model('AiEmployee', aiEmployeeSchema, 'ai_employees');
export const TemplateModel = model('Template', templateSchema, 'templates');
export const QuickReplyModel = model('QuickReply', quickReplySchema, 'quick_replies');
export const WebhookModel = model('Webhook', webhookSchema, 'webhooks');
export const PaymentModel = model('Payment', paymentSchema, 'payments');
export const ScheduledMessageModel = model('ScheduledMessage', scheduledMessageSchema, 'scheduled_messages');
export const ScheduleClaimModel = model('ScheduleClaim', scheduleClaimSchema, 'schedule_claims');
export const ConversationScheduleSlotModel = model('ConversationScheduleSlot', conversationScheduleSlotSchema, 'conversation_schedule_slots');
export const WalletLedgerModel = model('WalletLedger', walletLedgerSchema, 'wallet_ledger');
export const TesterClockAdvanceModel = model('TesterClockAdvance', testerClockAdvanceSchema, 'tester_clock_advances');
export const ConversationStateLogModel = model('ConversationStateLog', conversationStateLogSchema, 'conversation_state_log');
export const ConversationOutboxModel = model('ConversationOutbox', conversationOutboxSchema, 'conversation_outbox');
export const ConversationOutboxClaimModel = model('ConversationOutboxClaim', conversationOutboxClaimSchema, 'conversation_outbox_claims');

type Entity<M> = M extends Model<infer Raw> ? Raw & { _id: string } : never;
export type BusinessEntity = Entity<typeof BusinessModel>;
export type ApiTokenEntity = InferSchemaType<typeof apiTokenSchema>;
export type ChannelEntity = InferSchemaType<typeof channelSchema>;
export type ContactEntity = InferSchemaType<typeof contactSchema>;
export type ConversationEntity = InferSchemaType<typeof conversationSchema>;
export type MessageEntity = InferSchemaType<typeof messageSchema>;
export type TimelineEventEntity = InferSchemaType<typeof timelineEventSchema>;
export type TagEntity = InferSchemaType<typeof tagSchema>;
export type MailboxCategoryEntity = InferSchemaType<typeof mailboxCategorySchema>;
export type MailboxEntity = InferSchemaType<typeof mailboxSchema>;
export type AiEmployeeEntity = InferSchemaType<typeof aiEmployeeSchema>;
export type TemplateEntity = InferSchemaType<typeof templateSchema>;
export type QuickReplyEntity = InferSchemaType<typeof quickReplySchema>;
export type WebhookEntity = InferSchemaType<typeof webhookSchema>;
export type PaymentEntity = InferSchemaType<typeof paymentSchema>;
export type ScheduledMessageEntity = InferSchemaType<typeof scheduledMessageSchema>;
export type ScheduleClaimEntity = InferSchemaType<typeof scheduleClaimSchema>;
export type ConversationScheduleSlotEntity = InferSchemaType<typeof conversationScheduleSlotSchema>;
export type WalletLedgerEntity = InferSchemaType<typeof walletLedgerSchema>;
export type ConversationStateLogEntity = InferSchemaType<typeof conversationStateLogSchema>;
export type ConversationOutboxEntity = InferSchemaType<typeof conversationOutboxSchema>;

export const ALL_MODELS = [
  BusinessModel,
  ApiTokenModel,
  ChannelModel,
  ContactModel,
  ConversationModel,
  MessageModel,
  TimelineEventModel,
  TagModel,
  MailboxCategoryModel,
  MailboxModel,
  AiEmployeeModel,
  TemplateModel,
  QuickReplyModel,
  WebhookModel,
  PaymentModel,
  ScheduledMessageModel,
  ScheduleClaimModel,
  ConversationScheduleSlotModel,
  WalletLedgerModel,
  TesterClockAdvanceModel,
  ConversationStateLogModel,
  ConversationOutboxModel,
  ConversationOutboxClaimModel,
] as const;
