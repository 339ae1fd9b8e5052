import type { TemplateEntity } from '@cmsg/dal';
import type { Template } from '@cmsg/proto';

/** A stored template as the API shows it; `channelKey` is its channel's public key. */
export function toTemplateMessage(template: TemplateEntity, channelKey: string): Template {
  return {
    uuid: template._id,
    name: template.name,
    language: template.language,
    category: template.category,
    status: template.status,
    body: template.body,
    variable_count: template.variable_count,
    header_type: template.header_type ?? undefined,
    buttons: (template.buttons ?? []) as Template['buttons'],
    channel: channelKey,
  };
}
