import { CatalogError } from '@cmsg/errors';
import { BusinessRepository, type BusinessScope } from '@cmsg/dal';

const businesses = new BusinessRepository();

/** The business's time zone (schedule times are read in it). */
export async function businessTimeZone(scope: BusinessScope): Promise<string> {
  const business = await businesses.findById(scope);
  if (!business) throw new CatalogError('FETCH_FAILED', 'The business of this caller no longer exists.');
  return business.time_zone || 'UTC';
}
