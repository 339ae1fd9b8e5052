import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { TemplateEntity } from './template.entity';
import { TemplateModel } from './template.schema';

export type StoredTemplateEntity = TemplateEntity & { _id: string };

export class TemplateRepository {
  find(scope: BusinessScope, id: string): Promise<StoredTemplateEntity | null> {
    return TemplateModel.findOne(scopedFilter(scope, { _id: id })).lean<StoredTemplateEntity>();
  }

  /** A template of a channel by name (the first by uuid when several languages share it). */
  async findOnChannelByName(scope: BusinessScope, channelId: string, name: string): Promise<StoredTemplateEntity | null> {
    const [first] = await TemplateModel.find(scopedFilter(scope, { name, channel_id: channelId })).sort({ _id: 1 }).limit(1).lean<StoredTemplateEntity[]>();
    return first ?? null;
  }
}
