import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { MessageContentSources, StoredTemplate } from './send-message-ports';
import type { TemplateReference } from './send-message.command';

/**
 * A template by uuid, or by name and language. Templates live per channel; when the same name and
 * language exist on several channels, the conversation's own channel decides, and without one there
 * the reference is TEMPLATE_AMBIGUOUS.
 */
export async function resolveTemplate(templates: MessageContentSources['templates'], scope: BusinessScope, reference: TemplateReference, conversationChannelId: string): Promise<StoredTemplate> {
  if (reference.uuid) {
    const template = await templates.findById(scope, reference.uuid);
    if (!template) throw new CatalogError('TEMPLATE_NOT_FOUND', `No template ${reference.uuid} in this business.`);
    return template;
  }
  const named = `${reference.name ?? ''} (${reference.language ?? ''})`;
  const candidates = await templates.findByNameAndLanguage(scope, reference.name ?? '', reference.language ?? '');
  if (candidates.length === 0) throw new CatalogError('TEMPLATE_NOT_FOUND', `No template ${named} in this business.`);
  const onConversationChannel = candidates.find((template) => template.channel_id === conversationChannelId);
  if (onConversationChannel) return onConversationChannel;
  if (candidates.length > 1) {
    throw new CatalogError('TEMPLATE_AMBIGUOUS', `Template ${named} exists on ${candidates.length} channels, none of them the conversation's; use template: { uuid }.`);
  }
  return candidates[0]!;
}
