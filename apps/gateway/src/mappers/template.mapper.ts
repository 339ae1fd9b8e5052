import type { Template, TemplateCategory, TemplateListResponse, TemplateStatus } from '@cmsg/api-schemas';
import type { ListTemplatesResponse, Template as ProtoTemplate } from '@cmsg/proto';
import { orNull } from './upstream-fields';

// The conversations service stores only values the seed file's schema accepted, so the wire's
// strings are the public enums.
export function toTemplate(template: ProtoTemplate): Template {
  return {
    uuid: template.uuid,
    name: template.name,
    language: template.language,
    category: template.category as TemplateCategory,
    status: template.status as TemplateStatus,
    body: template.body,
    variable_count: template.variable_count,
    header_type: orNull(template.header_type) as Template['header_type'],
    buttons: template.buttons as Template['buttons'],
    channel: template.channel,
  };
}

export function toTemplateListResponse(response: ListTemplatesResponse): TemplateListResponse {
  return { items: response.items.map(toTemplate), has_more: response.has_more, next_cursor: response.next_cursor };
}
