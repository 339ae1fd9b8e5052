import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { TenantRepository } from '../shared/tenant-repository';
import type { TemplateEntity } from './template.entity';
import { TemplateModel } from './template.schema';

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
}
