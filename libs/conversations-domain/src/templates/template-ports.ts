import type { BusinessScope, ChannelEntity, TemplateEntity, TemplateListQuery } from '@cmsg/dal';

/** What the template use cases read (TemplateRepository in the app, an in-memory double in specs). */
export interface TemplateStore {
  findById(scope: BusinessScope, id: string): Promise<TemplateEntity | null>;
  listPage(scope: BusinessScope, query: TemplateListQuery): Promise<TemplateEntity[]>;
}

/** The channels a template is shown with (ChannelRepository in the app). */
export interface TemplateChannelStore {
  findByPublicKey(scope: BusinessScope, publicKey: string): Promise<ChannelEntity | null>;
  findByIds(scope: BusinessScope, ids: readonly string[]): Promise<ChannelEntity[]>;
}

export interface TemplateDependencies {
  templates: TemplateStore;
  channels: TemplateChannelStore;
}
