import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, MailboxCategoryModel, MailboxModel, scopedFilter } from '@cmsg/dal';
import { type ObjectRef, hasObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';

export interface StoredMailbox {
  _id: string;
  name: string;
  category_id: string;
}

/**
 * The mailbox an assign_mailbox names: `mailbox` directly, or the first mailbox of `category` by
 * name (SPEC 4.3, CONTRACT 4). Exactly one of the two.
 */
export async function resolveMailboxTarget(scope: BusinessScope, target: { mailbox?: ObjectRef; category?: ObjectRef }): Promise<StoredMailbox> {
  const byMailbox = hasObjectRef(target.mailbox);
  const byCategory = hasObjectRef(target.category);
  if (byMailbox === byCategory) throw new CatalogError('INVALID_REQUEST', 'Exactly one of mailbox or category is required.');
  if (byMailbox) {
    return resolveObjectRef<StoredMailbox>(MailboxModel, scope, target.mailbox!, { notFound: 'MAILBOX_NOT_FOUND', ambiguous: 'AMBIGUOUS_MAILBOX' }, 'mailbox');
  }
  const category = await resolveObjectRef<{ _id: string; name: string }>(
    MailboxCategoryModel,
    scope,
    target.category!,
    { notFound: 'CATEGORY_NOT_FOUND', ambiguous: 'AMBIGUOUS_CATEGORY', otherBusiness: 'CATEGORY_BUSINESS_MISMATCH' },
    'mailbox category',
  );
  const [first] = await MailboxModel.find(scopedFilter(scope, { category_id: category._id }))
    .sort({ name_key: 1, name: 1, _id: 1 })
    .limit(1)
    .lean<StoredMailbox[]>();
  if (!first) throw new CatalogError('NO_MAILBOXES_IN_CATEGORY', `The category '${category.name}' has no mailboxes.`);
  return first;
}
