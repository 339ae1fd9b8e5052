import type { BusinessEntity, BusinessScope } from '@cmsg/dal';
import type { BusinessDirectory } from '../conversation/business-clock';

/** A stored business with the schema's defaults; `overrides` sets what a spec cares about. */
export function businessRow(overrides: Partial<BusinessEntity> & Pick<BusinessEntity, '_id'>): BusinessEntity {
  return {
    slug: overrides._id,
    slug_lower: overrides._id,
    name: overrides._id,
    time_zone: 'UTC',
    tester_clock_offset_ms: 0,
    vision_wallet_tokens: 0,
    vision_wallet_funded_tokens: 0,
    vision_wallet_unbilled_tokens: 0,
    vision_wallet_recent_operation_ids: [],
    storage_quota_bytes: 0,
    storage_used_bytes: 0,
    storage_reserved_file_ids: [],
    payment_profile: null,
    contact_attribute_definitions: [],
    contact_attribute_cleanups: [],
    consent_keywords: null,
    created_at: new Date('2026-11-01T00:00:00.000Z'),
    ...overrides,
  } as BusinessEntity;
}

/** The businesses collection in memory, read by the caller's business id. */
export class InMemoryBusinesses implements BusinessDirectory {
  readonly rows: BusinessEntity[] = [];

  async findById(scope: BusinessScope): Promise<BusinessEntity | null> {
    return this.rows.find((row) => row._id === scope.businessId) ?? null;
  }
}
