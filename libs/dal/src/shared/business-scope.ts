/**
 * A business id that came from an authenticated token (or the admin tool). Repositories take
 * a BusinessScope as their first argument and add it to every filter, so a query without the
 * tenant key does not type-check.
 */
export type BusinessId = string & { readonly __brand: 'BusinessId' };

export interface BusinessScope {
  readonly businessId: BusinessId;
}

export function businessScope(businessId: string): BusinessScope {
  return { businessId: businessId as BusinessId };
}

export function scopedFilter<Filter extends object>(scope: BusinessScope, filter: Filter): Filter & { business_id: BusinessId } {
  return { ...filter, business_id: scope.businessId };
}
