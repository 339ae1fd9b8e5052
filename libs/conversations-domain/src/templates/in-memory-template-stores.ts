import type { BusinessScope, ChannelEntity, TemplateEntity, TemplateListQuery } from '@cmsg/dal';
import type { TemplateChannelStore, TemplateStore } from './template-ports';

/** The template ports in memory, with the repository's filters and (name, language, _id) order, for the use case specs. */
export class InMemoryTemplateStore implements TemplateStore {
  readonly rows: TemplateEntity[] = [];

  async findById(scope: BusinessScope, id: string): Promise<TemplateEntity | null> {
    return this.rows.find((row) => row.business_id === scope.businessId && row._id === id) ?? null;
  }

  async listPage(scope: BusinessScope, query: TemplateListQuery): Promise<TemplateEntity[]> {
    const key = (row: { name: string; language: string; id: string }) => [row.name, row.language, row.id];
    const after = query.after ? key(query.after) : undefined;
    return this.rows
      .filter((row) => row.business_id === scope.businessId)
      .filter((row) => (query.channelId === undefined || row.channel_id === query.channelId) && (query.category === undefined || row.category === query.category))
      .filter((row) => query.status === undefined || row.status === query.status)
      .filter((row) => after === undefined || compareKeys(key({ ...row, id: row._id }), after) > 0)
      .sort((a, b) => compareKeys(key({ ...a, id: a._id }), key({ ...b, id: b._id })))
      .slice(0, query.limit);
  }
}

export class InMemoryChannelStore implements TemplateChannelStore {
  readonly rows: ChannelEntity[] = [];

  async findByPublicKey(scope: BusinessScope, publicKey: string): Promise<ChannelEntity | null> {
    return this.rows.find((row) => row.business_id === scope.businessId && row.public_key === publicKey) ?? null;
  }

  async findByIds(scope: BusinessScope, ids: readonly string[]): Promise<ChannelEntity[]> {
    return this.rows.filter((row) => row.business_id === scope.businessId && ids.includes(row._id));
  }
}

/** A connected channel of a business, for seeding the stores. */
export function channelRow(business: string, id: string, publicKey: string): ChannelEntity {
  return { _id: id, business_id: business, public_key: publicKey, name: publicKey, phone: '', phone_number_id: `pn-${id}`, access_token: '', default_scheduled_template: null, status: 'connected', business_account_id: null, max_messages_per_second: 80, messaging_limit: null };
}

/** An approved utility template on channel c1 unless `fields` say otherwise. */
export function templateRow(business: string, id: string, fields: Partial<TemplateEntity>): TemplateEntity {
  return {
    _id: id,
    business_id: business,
    channel_id: 'c1',
    name: 'order_update',
    language: 'es',
    status: 'approved',
    category: 'utility',
    body: 'Hola {{1}}',
    variable_count: 1,
    header_type: null,
    buttons: [],
    is_fake: false,
    provider_template_id: null,
    ...fields,
  };
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i += 1) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
}
