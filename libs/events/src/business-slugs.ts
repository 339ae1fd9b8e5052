import type { BusinessRepository, BusinessScope } from '@cmsg/dal';

/** How long a business's slug is reused from memory (events carry it; it is read on every recording otherwise). */
const SLUG_CACHE_MS = 60_000;

/** The slug of a business, read once a minute at most. */
export class BusinessSlugs {
  private readonly cache = new Map<string, { slug: string; until: number }>();

  constructor(
    private readonly businesses: Pick<BusinessRepository, 'findById'>,
    private readonly now: () => number = Date.now,
  ) {}

  async slugOf(scope: BusinessScope): Promise<string> {
    const cached = this.cache.get(scope.businessId);
    if (cached && cached.until > this.now()) return cached.slug;
    const business = await this.businesses.findById(scope);
    if (!business) throw new Error(`business ${scope.businessId} not found while recording an event`);
    this.cache.set(scope.businessId, { slug: business.slug, until: this.now() + SLUG_CACHE_MS });
    return business.slug;
  }
}
