import { type BusinessScope, type MailboxEntity, nameLookupKey } from '@cmsg/dal';
import type { MailboxDirectory } from '../mailbox/resolve-mailbox-target';
import { InMemoryNamedObjects } from './in-memory-named-objects';

type CategoryRow = { _id: string; business_id: string; name: string; name_key: string };

export function mailboxRow(fields: { _id: string; business_id: string; category_id: string; name: string }): MailboxEntity {
  return { ...fields, name_key: nameLookupKey(fields.name) };
}

export function categoryRow(fields: { _id: string; business_id: string; name: string }): CategoryRow {
  return { ...fields, name_key: nameLookupKey(fields.name) };
}

class InMemoryMailboxes extends InMemoryNamedObjects<MailboxEntity> {
  /** The repository's order: name key, name, id. */
  async findFirstOfCategory(scope: BusinessScope, categoryId: string): Promise<MailboxEntity | null> {
    const key = (row: MailboxEntity) => [row.name_key, row.name, row._id];
    const compare = (a: MailboxEntity, b: MailboxEntity) => {
      const [x, y] = [key(a), key(b)];
      const at = x.findIndex((part, index) => part !== y[index]);
      return at === -1 ? 0 : x[at]! < y[at]! ? -1 : 1;
    };
    return this.rows.filter((row) => row.business_id === scope.businessId && row.category_id === categoryId).sort(compare)[0] ?? null;
  }
}

/** The mailboxes and mailbox categories of every business in memory. */
export class InMemoryMailboxDirectory implements MailboxDirectory {
  readonly mailboxes = new InMemoryMailboxes();
  readonly categories = new InMemoryNamedObjects<CategoryRow>();
}
