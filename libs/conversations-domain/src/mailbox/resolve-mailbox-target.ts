import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, MailboxEntity } from '@cmsg/dal';
import { type NamedObjects, type ObjectRef, hasObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';

export type StoredMailbox = MailboxEntity;

/** The business's mailboxes and their categories (MailboxRepository and MailboxCategoryRepository in the app). */
export interface MailboxDirectory {
  mailboxes: NamedObjects<StoredMailbox> & {
    /** The first mailbox of the category by name. */
    findFirstOfCategory(scope: BusinessScope, categoryId: string): Promise<StoredMailbox | null>;
  };
  categories: NamedObjects<{ _id: string; name: string }>;
}

/**
 * The mailbox an assign_mailbox names: `mailbox` directly, or the first mailbox of `category` by
 * name (SPEC 4.3, CONTRACT 4). Exactly one of the two.
 */
export async function resolveMailboxTarget(directory: MailboxDirectory, scope: BusinessScope, target: { mailbox?: ObjectRef; category?: ObjectRef }): Promise<StoredMailbox> {
  const byMailbox = hasObjectRef(target.mailbox);
  const byCategory = hasObjectRef(target.category);
  if (byMailbox === byCategory) throw new CatalogError('INVALID_REQUEST', 'Exactly one of mailbox or category is required.');
  if (byMailbox) {
    return resolveObjectRef(directory.mailboxes, scope, target.mailbox!, { notFound: 'MAILBOX_NOT_FOUND', ambiguous: 'AMBIGUOUS_MAILBOX' }, 'mailbox');
  }
  const category = await resolveObjectRef(
    directory.categories,
    scope,
    target.category!,
    { notFound: 'CATEGORY_NOT_FOUND', ambiguous: 'AMBIGUOUS_CATEGORY', otherBusiness: 'CATEGORY_BUSINESS_MISMATCH' },
    'mailbox category',
  );
  const first = await directory.mailboxes.findFirstOfCategory(scope, category._id);
  if (!first) throw new CatalogError('NO_MAILBOXES_IN_CATEGORY', `The category '${category.name}' has no mailboxes.`);
  return first;
}
