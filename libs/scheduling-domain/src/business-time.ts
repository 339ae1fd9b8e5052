import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { BusinessStore } from './ports';

/** The business's time zone (schedule times are read in it). */
export async function businessTimeZone(businesses: Pick<BusinessStore, 'findById'>, scope: BusinessScope): Promise<string> {
  const business = await businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this caller no longer exists.');
  return business.time_zone || 'UTC';
}
