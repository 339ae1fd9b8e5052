import type { BusinessScope } from '../shared/business-scope';
import { type UpsertCounts, bulkUpsert, upsert } from '../shared/bulk-upsert';
import { type WalletCharge, type WalletChargeOutcome, type WalletFields, chargeWallet, fundWallet } from '../shared/token-wallet';
import type { BusinessEntity } from './business.entity';
import { BusinessModel } from './business.schema';

const VISION_WALLET: WalletFields = {
  balance: 'vision_wallet_tokens',
  funded: 'vision_wallet_funded_tokens',
  unbilled: 'vision_wallet_unbilled_tokens',
  recentOperations: 'vision_wallet_recent_operation_ids',
};

/** A business as the seed defines it. */
export interface BusinessSeedFields {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  visionWalletTokens: number;
  paymentProfile: Record<string, unknown> | null;
  /** CONTRACT 10.1; empty leaves the business's definitions (made through the API) alone. */
  contactAttributeDefinitions?: { key: string; type: string; options: string[] }[];
  /** CONTRACT 10.2: the business's own keyword lists; null keeps the defaults. */
  consentKeywords?: { opt_out?: string[]; opt_in?: string[] } | null;
}

export interface StorageReservation {
  fileId: string;
  bytes: number;
  quotaBytes: number;
  /** Uploads a business may hold unconfirmed at once. */
  maxPendingUploads: number;
}

/**
 * The businesses collection. A business is the tenant itself: its document is `_id` =
 * scope.businessId, so every method of a scope reads and writes only that document.
 */
export class BusinessRepository {
  findById(scope: BusinessScope): Promise<BusinessEntity | null> {
    return BusinessModel.findOne({ _id: scope.businessId }).lean<BusinessEntity>().exec();
  }

  findBySlug(slug: string): Promise<BusinessEntity | null> {
    return BusinessModel.findOne({ slug_lower: slug.toLowerCase() }).lean<BusinessEntity>().exec();
  }

  /** Several businesses by id, across businesses on purpose (the scheduler reads the tester clocks of every business with due tester schedules). */
  findManyAcrossBusinesses(ids: readonly string[]): Promise<BusinessEntity[]> {
    return BusinessModel.find({ _id: { $in: [...new Set(ids)] } }).lean<BusinessEntity[]>().exec();
  }

  /** Moves the tester clock forward (`$inc`: concurrent advances add up); the new offset, or null for an unknown business. */
  async advanceTesterClock(scope: BusinessScope, advanceMs: number): Promise<number | null> {
    const business = await BusinessModel.findOneAndUpdate(
      { _id: scope.businessId },
      { $inc: { tester_clock_offset_ms: advanceMs } },
      { returnDocument: 'after', projection: { tester_clock_offset_ms: 1 } },
    ).lean<{ tester_clock_offset_ms: number }>();
    return business?.tester_clock_offset_ms ?? null;
  }

  /** The tester clock offsets of several businesses at once (the scheduler's firer spans businesses). */
  async testerClockOffsetsInAnyBusiness(businessIds: readonly string[]): Promise<Map<string, number>> {
    const businesses = await BusinessModel.find({ _id: { $in: [...new Set(businessIds)] } }, { tester_clock_offset_ms: 1 }).lean<{ _id: string; tester_clock_offset_ms?: number }[]>();
    return new Map(businesses.map((business) => [business._id, business.tester_clock_offset_ms ?? 0]));
  }

  /** Null when the business does not exist. */
  chargeVisionWallet(scope: BusinessScope, charge: WalletCharge): Promise<WalletChargeOutcome | null> {
    return chargeWallet(BusinessModel, { _id: scope.businessId }, VISION_WALLET, charge);
  }

  /**
   * Reserves an upload's bytes against the quota and a place among the pending uploads, in one
   * conditional update: false when the bytes do not fit (used + bytes > quota), the pending uploads
   * are at the cap, or the reservation is held already.
   */
  async reserveStorage(scope: BusinessScope, reservation: StorageReservation): Promise<boolean> {
    const { fileId, bytes, quotaBytes, maxPendingUploads } = reservation;
    const reserved = await BusinessModel.updateOne(
      {
        _id: scope.businessId,
        storage_used_bytes: { $lte: quotaBytes - bytes },
        storage_reserved_file_ids: { $ne: fileId },
        [`storage_reserved_file_ids.${maxPendingUploads - 1}`]: { $exists: false },
      },
      { $inc: { storage_used_bytes: bytes }, $push: { storage_reserved_file_ids: fileId } },
    );
    return reserved.modifiedCount === 1;
  }

  /** Gives an unconfirmed upload's bytes back, once: false when its reservation was not (or no longer) held. */
  async releaseStorage(scope: BusinessScope, fileId: string, bytes: number): Promise<boolean> {
    const released = await BusinessModel.updateOne(
      { _id: scope.businessId, storage_reserved_file_ids: fileId },
      { $inc: { storage_used_bytes: -bytes }, $pull: { storage_reserved_file_ids: fileId } },
    );
    return released.modifiedCount === 1;
  }

  /** A confirmed upload keeps its bytes counted; its place among the pending uploads is freed. */
  async keepStorage(scope: BusinessScope, fileId: string): Promise<void> {
    await BusinessModel.updateOne({ _id: scope.businessId, storage_reserved_file_ids: fileId }, { $pull: { storage_reserved_file_ids: fileId } });
  }

  /**
   * Upserts the business (keyed by id; the slug index refuses a slug of another business) and sets
   * its vision wallet's funded total (the balance moves by the difference, see fundWallet).
   */
  async upsertFromSeed(business: BusinessSeedFields, now: Date): Promise<UpsertCounts> {
    const counts = await bulkUpsert(BusinessModel, [
      upsert(
        { _id: business.id },
        {
          slug: business.slug,
          slug_lower: business.slug.toLowerCase(),
          name: business.name,
          time_zone: business.timeZone,
          payment_profile: business.paymentProfile,
          consent_keywords: business.consentKeywords ?? null,
          ...(business.contactAttributeDefinitions?.length
            ? { contact_attribute_definitions: business.contactAttributeDefinitions.map((definition) => ({ ...definition, created_at: now })) }
            : {}),
        },
        { created_at: now, vision_wallet_tokens: business.visionWalletTokens, vision_wallet_funded_tokens: business.visionWalletTokens },
      ),
    ]);
    const funded = await fundWallet(BusinessModel, { _id: business.id }, VISION_WALLET, business.visionWalletTokens);
    return { inserted: counts.inserted, updated: counts.updated > 0 || funded ? 1 : 0 };
  }
}
