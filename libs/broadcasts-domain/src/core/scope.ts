import { type BusinessScope, businessScope } from '@cmsg/dal';

/** The scope of a stored broadcast or recipient: its own business. */
export function businessScopeOf(document: { business_id: string }): BusinessScope {
  return businessScope(document.business_id);
}
