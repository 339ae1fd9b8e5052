import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TenantRepository } from '../shared/tenant-repository';
import type { TemplateEntity } from './template.entity';
import { TemplateModel } from './template.schema';

/** Where a page of templates ended, in the list's (name, language, _id) order. */
export interface TemplateListPosition {
  name: string;
  language: string;
  id: string;
}

/** GET /templates: each filter optional, combined with AND. */
export interface TemplateListQuery {
  channelId?: string;
  category?: string;
  status?: string;
  after?: TemplateListPosition;
  limit: number;
}

/** How a status webhook names a template within one channel. */
export type TemplateMatch = { providerTemplateId: string } | { name: string; language: string };

export class TemplateRepository extends TenantRepository<TemplateEntity> {
  constructor() {
    super(TemplateModel);
  }

  /** Templates of that name and language, on any channel of the business, by id. */
  findByNameAndLanguage(scope: BusinessScope, name: string, language: string): Promise<TemplateEntity[]> {
    return TemplateModel.find(scopedFilter(scope, { name, language })).sort({ _id: 1 }).lean<TemplateEntity[]>().exec();
  }

  /** A channel's template by name (the first by id when several languages share it). */
  findOnChannelByName(scope: BusinessScope, channelId: string, name: string): Promise<TemplateEntity | null> {
    return TemplateModel.findOne(scopedFilter(scope, { channel_id: channelId, name })).sort({ _id: 1 }).lean<TemplateEntity>().exec();
  }

  /** One page of templates by (name, language, _id), strictly after `after`. */
  listPage(scope: BusinessScope, query: TemplateListQuery): Promise<TemplateEntity[]> {
    const filter = scopedFilter(scope, {
      ...(query.channelId === undefined ? {} : { channel_id: query.channelId }),
      ...(query.category === undefined ? {} : { category: query.category }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.after === undefined ? {} : afterPosition(query.after)),
    });
    return TemplateModel.find(filter).sort({ name: 1, language: 1, _id: 1 }).limit(query.limit).lean<TemplateEntity[]>().exec();
  }

  /** Sets the status of the channel's templates the webhook names; how many it matched. */
  async setStatusOnChannel(scope: BusinessScope, channelId: string, match: TemplateMatch, status: string): Promise<number> {
    // By name and language only templates without a provider id: one with another id is another template.
    const named = 'providerTemplateId' in match ? { provider_template_id: match.providerTemplateId } : { provider_template_id: null, name: match.name, language: match.language };
    const result = await TemplateModel.updateMany(scopedFilter(scope, { channel_id: channelId, ...named }), { $set: { status } }).exec();
    return result.matchedCount;
  }
}

function afterPosition(position: TemplateListPosition): Record<string, unknown> {
  return {
    $or: [
      { name: { $gt: position.name } },
      { name: position.name, language: { $gt: position.language } },
      { name: position.name, language: position.language, _id: { $gt: position.id } },
    ],
  };
}
