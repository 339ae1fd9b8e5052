/**
 * Query shapes the apps send that no declared index serves, on purpose, each with the reason that
 * makes a collection scan acceptable. `shape` is the line the index-shape report prints. Keep it
 * short: an entry here is a query that reads every document of its collection on MongoDB.
 */
export interface AllowedUnindexedQuery {
  shape: string;
  reason: string;
}

export const UNINDEXED_QUERY_ALLOWLIST: readonly AllowedUnindexedQuery[] = [];
