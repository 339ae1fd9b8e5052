import type { BusinessScope } from '../shared/business-scope';
import { TemplateRepository } from '../template/template.repository';
import { ChannelRepository } from './channel.repository';

const channels = new ChannelRepository();
const templates = new TemplateRepository();

/**
 * The channel's default scheduled template (a template name on that channel, SPEC 4.1), the
 * fallback of AI schedules that name none; null when the channel sets none or it does not exist.
 */
export async function defaultScheduledTemplateId(scope: BusinessScope, channelId: string): Promise<string | null> {
  const name = (await channels.findById(scope, channelId))?.default_scheduled_template;
  if (!name) return null;
  return (await templates.findOnChannelByName(scope, channelId, name))?._id ?? null;
}
