import { type AttributeValue, foldText } from '@cmsg/contact-filter';
import type { ContactEntity } from '@cmsg/dal';

export const CONSENT_CATEGORIES = ['marketing', 'utility'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];
export type ConsentStatus = 'opted_in' | 'opted_out' | 'unknown';
export type ConsentSource = 'api' | 'keyword' | 'provider' | 'import';

/** What a write asks of a contact: a member absent is left alone, null removes it (RFC 7386). */
export interface ContactEdit {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  language?: string | null;
  external_id?: string | null;
  /** Digits. */
  phone_key?: string;
  chat_user_id?: string;
  attributes?: { set: readonly { k: string; v: AttributeValue }[]; unset: readonly string[]; removeAll?: boolean };
  consent?: Partial<Record<ConsentCategory, ConsentStatus>>;
  consentSource?: ConsentSource;
}

export interface ConsentChange {
  category: ConsentCategory;
  from: ConsentStatus;
  to: ConsentStatus;
  source: ConsentSource;
}

/** The write that makes an edit, and what it changes (for contact.updated and contact.consent_changed). */
export interface PlannedContactChange {
  set: Record<string, unknown>;
  unset: string[];
  /** Public field names whose value changes; `attributes.<key>` per attribute. */
  changed: string[];
  consentChanges: ConsentChange[];
}

type Stored = ContactEntity & { external_id_key?: string | null };

const TEXT_FIELDS = ['first_name', 'last_name', 'email', 'language', 'external_id'] as const;
/** The searchable key stored beside a text field (libs/contact-filter compares these). */
const KEY_OF: Partial<Record<(typeof TEXT_FIELDS)[number], (value: string, businessId: string) => string>> = {
  first_name: (value) => foldText(value),
  last_name: (value) => foldText(value),
  email: (value) => foldText(value),
};

/**
 * Plans the write of an edit against the contact as read: only what differs is written, so a
 * repeat of the same request changes nothing and emits no event. Null when nothing changes.
 */
export function planContactChange(contact: Stored, edit: ContactEdit, now: Date): PlannedContactChange | null {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  const changed: string[] = [];
  for (const field of TEXT_FIELDS) {
    const wanted = edit[field];
    if (wanted === undefined || (contact[field] ?? null) === wanted) continue;
    changed.push(field);
    set[field] = wanted;
    const keyOf = KEY_OF[field];
    if (keyOf) set[`${field}_key`] = wanted === null ? null : keyOf(wanted, contact.business_id);
  }
  if (changed.includes('external_id')) {
    if (edit.external_id === null) unset.push('external_id_key');
    else set['external_id_key'] = externalIdKey(contact.business_id, edit.external_id!);
  }
  if (edit.phone_key !== undefined && contact.phone_key !== edit.phone_key) {
    changed.push('phone');
    set['phone_key'] = edit.phone_key;
    set['phone'] = `+${edit.phone_key}`;
  }
  if (edit.chat_user_id !== undefined && contact.chat_user_id !== edit.chat_user_id) {
    changed.push('chat_user_id');
    set['chat_user_id'] = edit.chat_user_id;
  }
  const attributes = plannedAttributes(contact.attributes ?? [], edit.attributes);
  if (attributes) {
    set['attributes'] = attributes.values;
    changed.push(...attributes.changedKeys.map((key) => `attributes.${key}`));
  }
  const consentChanges = plannedConsent(contact, edit, now, set);
  if (changed.length === 0 && consentChanges.length === 0) return null;
  set['updated_at'] = now;
  return { set, unset, changed, consentChanges };
}

/** The stored form of the unique external_id: `<business_id>:<external_id>` (the business id holds no colon). */
export function externalIdKey(businessId: string, externalId: string): string {
  return `${businessId}:${externalId}`;
}

function plannedAttributes(current: readonly { k: string; v: unknown }[], edit: ContactEdit['attributes']): { values: { k: string; v: unknown }[]; changedKeys: string[] } | null {
  if (!edit) return null;
  const values = new Map(edit.removeAll ? [] : current.map((value) => [value.k, value.v] as const));
  for (const key of edit.unset) values.delete(key);
  for (const value of edit.set) values.set(value.k, value.v);
  const before = new Map(current.map((value) => [value.k, value.v] as const));
  const keys = new Set([...before.keys(), ...values.keys()]);
  const changedKeys = [...keys].filter((key) => before.get(key) !== values.get(key) || before.has(key) !== values.has(key)).sort();
  if (changedKeys.length === 0) return null;
  return { values: [...values].map(([k, v]) => ({ k, v })), changedKeys };
}

function plannedConsent(contact: Stored, edit: ContactEdit, now: Date, set: Record<string, unknown>): ConsentChange[] {
  const changes: ConsentChange[] = [];
  if (!edit.consent) return changes;
  const source = edit.consentSource ?? 'api';
  const stored = (contact as { consent?: Partial<Record<ConsentCategory, { status?: string } | null>> | null }).consent ?? {};
  for (const category of CONSENT_CATEGORIES) {
    const to = edit.consent[category];
    const from = (stored[category]?.status ?? 'unknown') as ConsentStatus;
    if (to === undefined || to === from) continue;
    set[`consent.${category}`] = { status: to, source, updated_at: now };
    changes.push({ category, from, to, source });
  }
  return changes;
}
