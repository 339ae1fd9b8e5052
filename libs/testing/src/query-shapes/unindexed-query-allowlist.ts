/**
 * Query shapes the apps send that no declared index serves, on purpose, each with the reason that
 * makes a collection scan acceptable. `shape` is the line the index-shape report prints. Keep it
 * short: an entry here is a query that reads every document of its collection on MongoDB.
 */
export interface AllowedUnindexedQuery {
  shape: string;
  reason: string;
}

export const UNINDEXED_QUERY_ALLOWLIST: readonly AllowedUnindexedQuery[] = [
  {
    shape: 'update broadcast_recipients {broadcast_id: eq, business_id: eq, error.provider_code: in, status: eq}',
    reason: 'POST /broadcasts/{uuid}/retry-failed: bounded by the broadcast\'s failed recipients on {business_id, broadcast_id, status, seq}; the provider code is checked on each (once per request, never on a hot path). docs/broadcasts.md',
  },
  {
    shape: 'find contacts {business_id: eq, channel_id: eq, first_name_key: eq} sort {_id: 1}',
    reason: 'A broadcast audience frozen from a filter: one pass over the business\'s contacts in _id order per broadcast, 500 at a time (docs/broadcasts.md, "Known costs"); names have no index of their own.',
  },
  {
    shape: 'find contacts {_id: range, business_id: eq, channel_id: eq, first_name_key: eq} sort {_id: 1}',
    reason: 'The next batches of the same pass (the checkpoint\'s last _id bounds the read on {business_id, _id}).',
  },
  {
    shape: 'find contacts {attributes.k: eq, attributes.v: eq, business_id: eq, tag_ids: eq} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, an attribute AND a tag: MongoDB bounds the read by the attribute on {business_id, attributes.k, attributes.v, created_at, _id} (in page order) and checks tag_ids on each contact it fetches; no index can hold both arrays (MongoDB refuses parallel arrays in one compound index). docs/contacts.md',
  },
  {
    shape: 'find contacts {attributes.k: eq, attributes.v: range, business_id: eq} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, an attribute range: bounded by the range on {business_id, attributes.k, attributes.v, created_at, _id}; the matching contacts are sorted in memory. docs/contacts.md',
  },
  {
    shape: 'find contacts {business_id: eq, email_key: regex} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, email starts_with: an anchored prefix bounds the read on {business_id, email_key, created_at, _id}; the matching contacts are sorted in memory. docs/contacts.md',
  },
  {
    shape: 'find contacts {attributes.k: ne, business_id: eq} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, attribute exists false: a negation scans the business\'s contacts in page order (documented in docs/contacts.md; combine it with an indexed condition).',
  },
  {
    shape: 'find contacts {business_id: eq, $or: [{first_name_key: eq}, {attributes.k: eq, attributes.v: eq}]} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, or of a first name and an attribute: names have no index of their own, so this alternative scans the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, consent.marketing.status: in} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search on consent alone: a low-selectivity field with no index of its own scans the business\'s contacts (docs/contacts.md); audiences combine it with an indexed condition.',
  },
  {
    shape: 'find contacts {business_id: eq, consent.marketing.status: ne, consent.utility.status: ne} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, consent negations: scan the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, first_name_key: regex} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, first_name starts_with: names have no index of their own and scan the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, inbox_status: eq} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search on inbox_status alone: two values, no index of its own; scans the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, last_inbound_at: ne} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, last_inbound_at exists: scans the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, tag_ids.0: exists} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, tag exists: an existence test on an array position scans the business\'s contacts (docs/contacts.md).',
  },
  {
    shape: 'find contacts {business_id: eq, tag_ids: nin, tag_ids.0: exists} sort {created_at: -1, _id: -1}',
    reason: 'POST /contacts/search, tag nin with tag exists: negations scan the business\'s contacts (docs/contacts.md).',
  },
];

/** Shapes no list can hold, as a pattern over the report's shape lines, with the reason that covers each of them. */
export interface AllowedUnindexedQueryFamily {
  family: RegExp;
  reason: string;
}

export const UNINDEXED_QUERY_FAMILIES: readonly AllowedUnindexedQueryFamily[] = [
  {
    family: /^find contacts \{(?=.*\bbusiness_id: eq\b).*\} sort \{created_at: -1, _id: -1\}$/,
    reason:
      'The contact filter language (POST /contacts/search, GET /contacts filters) in its page order: callers combine conditions freely, so its shapes are as many as the combinations (the fuzzers send new ones at every run). Which conditions an index serves and which scan the business\'s contacts is the table in docs/data-layer.md, "Contact search"; the entries above are the combinations the suite\'s own tests send.',
  },
  {
    family: /^find contacts \{(?=.*\bbusiness_id: eq\b)(?=.*\bchannel_id: eq\b).*\} sort \{_id: 1\}$/,
    reason: 'A broadcast audience frozen from a filter: the same language, one pass over the business\'s contacts of the channel in _id order, 500 at a time (docs/broadcasts.md, "Known costs").',
  },
];

/** What allows a shape no index serves: its own entry first, else its family. */
export function allowanceFor(description: string): AllowedUnindexedQuery | undefined {
  const own = UNINDEXED_QUERY_ALLOWLIST.find((entry) => entry.shape === description);
  if (own) return own;
  const family = UNINDEXED_QUERY_FAMILIES.find((entry) => entry.family.test(description));
  return family ? { shape: description, reason: family.reason } : undefined;
}
