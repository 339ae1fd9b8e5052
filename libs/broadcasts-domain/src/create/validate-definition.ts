import type { BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { AudienceFileError, MAX_AUDIENCE_FILE_BYTES, readCsvHeader } from '../audience-file';
import type { AudiencePorts, BroadcastChannel, BroadcastTemplateInfo, DefinitionPorts } from '../core/audience-ports';
import { AUDIENCE_FILE_MODULE, type FileAudience, ROW_PHONE_KEY, audienceFileFormatOf } from '../freeze/file-rows';
import { parseSendWindow } from '../send-window';
import { type ParsedVariables, parseVariableTemplates, placeholderRoots, referencedRowColumns } from '../variables';
import { type BroadcastDefinitionInput, MAX_AUDIENCE_CONTACTS, type StoredAudience } from './broadcast-definition';

export interface ValidDefinition {
  channel: BroadcastChannel;
  template: BroadcastTemplateInfo;
  timeZone: string;
  sendAt: Date | null;
  /** The audience as it is stored: a file audience with its format and CSV header. */
  audience: StoredAudience;
}

/** Columns named in an error message at most (a file may have hundreds). */
const NAMED_COLUMNS = 20;

/**
 * Every rule of a broadcast's definition checked before anything is stored: the channel, the template
 * (approved: 422 TEMPLATE_NOT_APPROVED), the placeholders (row.* only for file audiences), the
 * audience (a file audience's file and CSV header), the window and the rate.
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
  const audience = await validateAudience(ports.audience, scope, input.audience, parsed);
  const sendAt = input.send_at === undefined ? null : new Date(input.send_at);
  if (sendAt && Number.isNaN(sendAt.getTime())) throw new CatalogError('INVALID_REQUEST', 'send_at: not a date-time.');
  return { channel, template, timeZone: await ports.definitions.businessTimeZone(scope), sendAt, audience };
}

async function validateAudience(audience: AudiencePorts, scope: BusinessScope, input: BroadcastDefinitionInput['audience'], variables: ParsedVariables): Promise<StoredAudience> {
  if (input.kind === 'filter') {
    await audience.validateFilter(scope, input.filter);
    return { kind: 'filter', filter: input.filter as Record<string, unknown> };
  }
  if (input.kind === 'contacts') {
    if (input.contact_ids.length < 1 || input.contact_ids.length > MAX_AUDIENCE_CONTACTS) {
      throw new CatalogError('INVALID_REQUEST', `audience.contacts: 1 to ${MAX_AUDIENCE_CONTACTS} contact uuids.`);
    }
    return { kind: 'contacts', contact_ids: [...input.contact_ids] };
  }
  return validateFileAudience(audience, scope, input.file_uuid, variables);
}

/**
 * A file audience (CONTRACT 10.4): a confirmed upload of module broadcast_audiences of this business
 * (else 404 FILE_NOT_FOUND), its format from its type. A CSV's header is read now, once: it must name
 * a phone column and every column the variables' `{{row.<column>}}` read (400 naming it); it is
 * stored with the audience so freezing resumes mid-file without reading it again. An NDJSON row
 * names its own keys, so its placeholders are only checked row by row (missing_variable).
 */
async function validateFileAudience(audience: AudiencePorts, scope: BusinessScope, fileUuid: string, variables: ParsedVariables): Promise<FileAudience> {
  const file = await audience.fileInfo(scope, fileUuid);
  const format = file && audienceFileFormatOf(file.mime_type);
  if (!file || file.module !== AUDIENCE_FILE_MODULE || file.status !== 'confirmed' || !format) {
    throw new CatalogError('FILE_NOT_FOUND', `audience.file_uuid: no confirmed file ${fileUuid} of module ${AUDIENCE_FILE_MODULE} in this business.`);
  }
  if (file.size > MAX_AUDIENCE_FILE_BYTES) throw new AudienceFileError('too_large', `the file is over ${MAX_AUDIENCE_FILE_BYTES} bytes`);
  if (format === 'ndjson') return { kind: 'file', file_id: file.id, format };
  const header = await readCsvHeader(audience.openFile(scope, file.id, 0));
  const readable = new Set([...header.columns, ROW_PHONE_KEY]);
  const missing = referencedRowColumns(variables).find((column) => !readable.has(column));
  if (missing !== undefined) {
    const named = header.columns.slice(0, NAMED_COLUMNS).join(', ') + (header.columns.length > NAMED_COLUMNS ? ', ...' : '');
    throw new CatalogError('INVALID_REQUEST', `variables: {{row.${missing}}} reads the column ${JSON.stringify(missing)}, which the audience file's header does not have (its columns: ${named}).`);
  }
  return { kind: 'file', file_id: file.id, format, header: { columns: header.columns, end_offset: header.endOffset } };
}

function invalidRequestOn<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError('INVALID_REQUEST', error instanceof Error ? error.message : String(error));
  }
}
