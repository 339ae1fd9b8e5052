import { type BusinessScope, type ChannelEntity, type TemplateMatch, businessScope } from '@cmsg/dal';
import type { TemplateStatusRecord } from './chat-inbound-record';

/** What a template status update reads and writes (ChannelRepository and TemplateRepository in the app). */
export interface TemplateStatusPorts {
  channels: { findByBusinessAccountIdAcrossBusinesses(businessAccountId: string): Promise<ChannelEntity[]> };
  templates: { setStatusOnChannel(scope: BusinessScope, channelId: string, match: TemplateMatch, status: string): Promise<number> };
  /** A template no longer approved: the running broadcasts of it on the channel pause (CONTRACT 10.3, `template_not_approved`). */
  templateNotApproved?(scope: BusinessScope, channelId: string, template: { name: string; language: string }): Promise<void>;
}

/** The provider's events that move a template's status (CONTRACT 10.3); any other is logged and ignored. */
export const TEMPLATE_STATUS_OF_EVENT: ReadonlyMap<string, string> = new Map([
  ['APPROVED', 'approved'],
  ['REJECTED', 'rejected'],
  ['PAUSED', 'paused'],
  ['DISABLED', 'disabled'],
]);

export type TemplateStatusOutcome =
  | { outcome: 'updated'; status: string; templates: number }
  | { outcome: 'ignored_event' | 'unknown_account' | 'unknown_template' };

/**
 * The webhook names the WhatsApp Business Account (entry id) and the template, never a phone
 * number or a business. Only channels whose business_account_id is that account are searched, and
 * each channel's templates within the channel's own business, so an update never reaches another
 * business's templates. Within a channel: by provider_template_id, else by name and language among
 * the templates the seed gave no provider id. Setting a status is idempotent: a repeat is harmless.
 */
export async function applyTemplateStatus(ports: TemplateStatusPorts, record: TemplateStatusRecord): Promise<TemplateStatusOutcome> {
  const status = TEMPLATE_STATUS_OF_EVENT.get(record.update.event);
  if (status === undefined) return { outcome: 'ignored_event' };
  const channels = await ports.channels.findByBusinessAccountIdAcrossBusinesses(record.business_account_id);
  if (channels.length === 0) return { outcome: 'unknown_account' };

  let templates = 0;
  for (const channel of channels) {
    const scope = businessScope(channel.business_id);
    const byId = await ports.templates.setStatusOnChannel(scope, channel._id, { providerTemplateId: record.update.message_template_id }, status);
    const changed =
      byId > 0 ? byId : await ports.templates.setStatusOnChannel(scope, channel._id, { name: record.update.message_template_name, language: record.update.message_template_language }, status);
    templates += changed;
    if (changed > 0 && status !== 'approved') {
      await ports.templateNotApproved?.(scope, channel._id, { name: record.update.message_template_name, language: record.update.message_template_language });
    }
  }
  return templates > 0 ? { outcome: 'updated', status, templates } : { outcome: 'unknown_template' };
}
