import { UNINDEXED_QUERY_ALLOWLIST, UNINDEXED_QUERY_FAMILIES, allowanceFor } from './unindexed-query-allowlist';

describe('allowanceFor', () => {
  it('answers a listed shape with its own reason', () => {
    const listed = UNINDEXED_QUERY_ALLOWLIST[0]!;
    expect(allowanceFor(listed.shape)).toBe(listed);
  });

  it('allows a combination of the contact filter language no test lists (as a fuzzer sends), in page or audience order', () => {
    const search = 'find contacts {business_id: eq, external_id: regex, last_name_key: eq} sort {created_at: -1, _id: -1}';
    expect(allowanceFor(search)).toEqual({ shape: search, reason: UNINDEXED_QUERY_FAMILIES[0]!.reason });
    const audience = 'find contacts {_id: range, business_id: eq, channel_id: eq, inbox_status: eq} sort {_id: 1}';
    expect(allowanceFor(audience)).toEqual({ shape: audience, reason: UNINDEXED_QUERY_FAMILIES[1]!.reason });
  });

  it('allows nothing else: other collections, other orders, a contacts query without its business', () => {
    for (const shape of [
      'find conversations {business_id: eq, status: eq} sort {created_at: -1, _id: -1}',
      'find contacts {business_id: eq, first_name_key: eq} sort {_id: 1}',
      'find contacts {phone_key: eq} sort {created_at: -1, _id: -1}',
      'find contacts {business_id: eq, external_id: eq}',
      'update contacts {business_id: eq, external_id: regex} sort {created_at: -1, _id: -1}',
    ]) {
      expect(allowanceFor(shape)).toBeUndefined();
    }
  });
});
