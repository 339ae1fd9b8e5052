import { type BroadcastEntity, type BroadcastRecipientEntity, emptyBroadcastCounts } from '@cmsg/dal';
import type { BroadcastDefinitionInput } from '../create/broadcast-definition';
import type { DefinitionWorld, StoredAudienceContact } from './in-memory-broadcast-ports';

/** The business of the specs, and another one whose data must stay out of reach. */
export const BUSINESS = 'b1';
export const OTHER_BUSINESS = 'b2';

/** A broadcast of BUSINESS on channel ch1, running since 2026-03-02T11:00:00Z, unless overridden. */
export function aBroadcast(overrides: Partial<BroadcastEntity> = {}): BroadcastEntity {
  const at = new Date('2026-03-02T11:00:00Z');
  return {
    _id: 'bc1',
    business_id: BUSINESS,
    name: 'Spring sale',
    channel_id: 'ch1',
    template: { uuid: 'tpl-promo', name: 'promo', language: 'en', category: 'marketing' },
    variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
    header: null,
    button_parameters: [],
    audience: { kind: 'filter', filter: {} },
    send_at: at,
    send_window: null,
    time_zone: 'UTC',
    max_per_second: null,
    status: 'running',
    pause_reason: null,
    created_at: at,
    started_at: at,
    finished_at: null,
    freeze: { after_contact_id: null, rows: 0, offset: 0, next_seq: 0 },
    due_at: at,
    dispatch_epoch: 1,
    progress_at: at,
    counts_at: null,
    current_per_second: 0,
    counts: emptyBroadcastCounts(),
    skipped_by_reason: {},
    failed_by_code: {},
    ...overrides,
  };
}

/** A pending recipient of `broadcast` at `seq`, its contact `c<seq>` in conversation `conv-<seq>`. */
export function aRecipient(broadcast: Pick<BroadcastEntity, '_id' | 'business_id'>, seq: number, overrides: Partial<BroadcastRecipientEntity> = {}): BroadcastRecipientEntity {
  return {
    _id: `${broadcast._id}-r${seq}`,
    business_id: broadcast.business_id,
    broadcast_id: broadcast._id,
    seq,
    dedupe_key: `c${seq}`,
    contact_id: `c${seq}`,
    conversation_id: `conv-${seq}`,
    phone: '+5215512345678',
    row: null,
    variables: [{ index: 1, value: 'Ana' }],
    status: 'pending',
    reason: null,
    error: null,
    attempt: 0,
    claimed_at: null,
    sent_at: null,
    ...overrides,
  };
}

/** A contact of BUSINESS on ch1 with a good phone, a conversation and no opt-out. */
export function aContact(id: string, overrides: Partial<StoredAudienceContact> = {}): StoredAudienceContact {
  return {
    business_id: BUSINESS,
    id,
    channel_id: 'ch1',
    phone: '+5215512345678',
    chat_user_id: null,
    conversation_id: `conv-${id}`,
    first_name: 'Ana',
    last_name: 'López',
    attributes: {},
    consent: { marketing: 'unknown', utility: 'unknown' },
    ...overrides,
  };
}

/** Channel `main` (ch1) of BUSINESS with an approved marketing template, a pending one and an approved utility one; b2 has its own. */
export function aDefinitionWorld(): DefinitionWorld {
  return {
    channels: [
      { business_id: BUSINESS, id: 'ch1', public_key: 'main', max_messages_per_second: 80, messaging_limit: 1000 },
      { business_id: OTHER_BUSINESS, id: 'ch-theirs', public_key: 'theirs', max_messages_per_second: 80, messaging_limit: null },
    ],
    templates: [
      { business_id: BUSINESS, uuid: 'tpl-promo', name: 'promo', language: 'en', category: 'marketing', status: 'approved', channel_id: 'ch1' },
      { business_id: BUSINESS, uuid: 'tpl-notice', name: 'notice', language: 'en', category: 'utility', status: 'approved', channel_id: 'ch1' },
      { business_id: BUSINESS, uuid: 'tpl-draft', name: 'draft', language: 'en', category: 'marketing', status: 'pending', channel_id: 'ch1' },
      { business_id: OTHER_BUSINESS, uuid: 'tpl-theirs', name: 'promo', language: 'en', category: 'marketing', status: 'approved', channel_id: 'ch-theirs' },
    ],
    timeZone: 'America/Mexico_City',
    remaining: { ch1: 700 },
  };
}

/** POST /broadcasts of the approved `promo` template on `main` to a filter audience, unless overridden. */
export function aDefinition(overrides: Partial<BroadcastDefinitionInput> = {}): BroadcastDefinitionInput {
  return {
    name: 'Spring sale',
    channel: 'main',
    template: { name: 'promo', language: 'en' },
    variables: [{ index: 1, value: '{{contact.first_name|there}}' }],
    header: null,
    button_parameters: [],
    audience: { kind: 'filter', filter: {} },
    ...overrides,
  };
}
