import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { AudiencePorts, BroadcastChannel, BroadcastTemplateInfo, DefinitionPorts } from '../core/audience-ports';
import { parseSendWindow } from '../send-window';
import { parseVariableTemplates, placeholderRoots } from '../variables';
import { type BroadcastDefinitionInput, MAX_AUDIENCE_CONTACTS } from './broadcast-definition';

export interface ValidDefinition {
  channel: BroadcastChannel;
  template: BroadcastTemplateInfo;
  timeZone: string;
  sendAt: Date | null;
}

/**
 * Every rule of a broadcast's definition checked before anything is stored: the channel, the template
 * (approved: 422 TEMPLATE_NOT_APPROVED), the placeholders (row.* only for file audiences), the
 * audience, the window and the rate.
 */
export async function validateDefinition(ports: { definitions: DefinitionPorts; audience: AudiencePorts }, scope: BusinessScope, input: BroadcastDefinitionInput): Promise<ValidDefinition> {
  const channel = await ports.definitions.channelByPublicKey(scope, input.channel);
  if (!channel) throw new CatalogError('CHANNEL_NOT_FOUND', `No channel ${input.channel} in this business.`);
  const template = await ports.definitions.template(scope, channel.id, input.template);
  if (!template) throw new CatalogError('TEMPLATE_NOT_FOUND', 'No such template on this channel.');
  if (template.status !== 'approved') throw new CatalogError('TEMPLATE_NOT_APPROVED', `The template ${template.name} (${template.language}) is ${template.status}, not approved.`);

  const parsed = invalidRequestOn(() => parseVariableTemplates(input.variables));
  if (input.audience.kind !== 'file' && placeholderRoots(parsed).has('row')) {
    throw new CatalogError('INVALID_REQUEST', 'variables: {{row.<column>}} placeholders need a file audience.');
  }
  if (input.send_window) invalidRequestOn(() => parseSendWindow(input.send_window));
  if (input.max_per_second !== undefined && (input.max_per_second < 1 || input.max_per_second > 1000)) {
    throw new CatalogError('INVALID_REQUEST', 'max_per_second: between 1 and 1000.');
  }
  await validateAudience(ports.audience, scope, input.audience);
  const sendAt = input.send_at === undefined ? null : new Date(input.send_at);
  if (sendAt && Number.isNaN(sendAt.getTime())) throw new CatalogError('INVALID_REQUEST', 'send_at: not a date-time.');
  return { channel, template, timeZone: await ports.definitions.businessTimeZone(scope), sendAt };
}

async function validateAudience(audience: AudiencePorts, scope: BusinessScope, input: BroadcastDefinitionInput['audience']): Promise<void> {
  if (input.kind === 'filter') return audience.validateFilter(scope, input.filter);
  if (input.kind === 'contacts') {
    if (input.contact_ids.length < 1 || input.contact_ids.length > MAX_AUDIENCE_CONTACTS) {
      throw new CatalogError('INVALID_REQUEST', `audience.contacts: 1 to ${MAX_AUDIENCE_CONTACTS} contact uuids.`);
    }
    return;
  }
  throw new CatalogError('INVALID_REQUEST', 'audience.file_uuid: file audiences are not accepted yet (docs/broadcasts.md).');
}

function invalidRequestOn<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError('INVALID_REQUEST', error instanceof Error ? error.message : String(error));
  }
}
