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
