import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { Template } from '@cmsg/proto';
import type { TemplateDependencies } from './template-ports';
import { toTemplateMessage } from './template-view';

/** GET /templates/{uuid}: another business's template is as unknown as a missing one. */
export async function getTemplate(dependencies: TemplateDependencies, scope: BusinessScope, uuid: string): Promise<Template> {
  const template = await dependencies.templates.findById(scope, uuid);
  if (!template) throw new CatalogError('TEMPLATE_NOT_FOUND', `No template ${uuid} in this business.`);
  const [channel] = await dependencies.channels.findByIds(scope, [template.channel_id]);
  if (!channel) throw new Error(`template ${uuid} names channel ${template.channel_id}, which the business does not have`);
  return toTemplateMessage(template, channel.public_key);
}
