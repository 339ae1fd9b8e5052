import type { BusinessScope } from '../shared/business-scope';
import { TemplateRepository } from '../template/template.repository';
import { ChannelRepository } from './channel.repository';

/**
 * The channel's default scheduled template (a template name on that channel, SPEC 4.1), the
 * fallback of AI schedules that name none.
 */
export class DefaultScheduledTemplates {
  constructor(
    private readonly channels: Pick<ChannelRepository, 'findById'> = new ChannelRepository(),
    private readonly templates: Pick<TemplateRepository, 'findOnChannelByName'> = new TemplateRepository(),
  ) {}

  /** Its template id; null when the channel sets none or it does not exist. */
  async idOf(scope: BusinessScope, channelId: string): Promise<string | null> {
    const name = (await this.channels.findById(scope, channelId))?.default_scheduled_template;
    if (!name) return null;
    return (await this.templates.findOnChannelByName(scope, channelId, name))?._id ?? null;
  }
}
