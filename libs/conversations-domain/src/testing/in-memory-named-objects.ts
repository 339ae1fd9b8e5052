import type { BusinessScope } from '@cmsg/dal';
import type { NamedObjects } from '../action-support/resolve-object-ref';

interface NamedRow {
  _id: string;
  business_id: string;
  name_key: string;
}

/** A collection of named objects of every business (tags, mailboxes, AI employees) as NamedTenantRepository reads it. */
export class InMemoryNamedObjects<Row extends NamedRow> implements NamedObjects<Row> {
  readonly rows: Row[] = [];

  async findById(scope: BusinessScope, id: string): Promise<Row | null> {
    return this.rows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null;
  }

  async findByIds(scope: BusinessScope, ids: readonly string[]): Promise<Row[]> {
    return this.rows.filter((row) => row.business_id === scope.businessId && ids.includes(row._id));
  }

  async findByNameKey(scope: BusinessScope, nameKey: string, limit = 2): Promise<Row[]> {
    return this.rows
      .filter((row) => row.business_id === scope.businessId && row.name_key === nameKey)
      .sort((a, b) => a._id.localeCompare(b._id))
      .slice(0, limit);
  }

  async existsInAnotherBusiness(scope: BusinessScope, id: string): Promise<boolean> {
    return this.rows.some((row) => row._id === id && row.business_id !== scope.businessId);
  }
}
