import type { BusinessScope } from '@cmsg/dal';
import type { BroadcastPreview } from '@cmsg/proto';
import type { AudienceContact, AudiencePorts, DefinitionPorts } from '../core/audience-ports';
import { effectiveRate } from '../core/broadcast-view';
import { FREEZE_BATCH_SIZE } from '../freeze/freeze-audience';
import { classifyContact } from '../freeze/classify-contact';
import { previewFileAudience } from '../freeze/preview-file-audience';
import { parseVariableTemplates } from '../variables';
import type { BroadcastDefinitionInput } from './broadcast-definition';
import { validateDefinition } from './validate-definition';

/**
 * POST /broadcasts/preview: the audience classified as it would be frozen now, nothing stored or
 * sent (a file audience creates no contacts: see previewFileAudience). `estimated_seconds` is the
 * recipients to send at the broadcast's rate.
 */
export async function previewBroadcast(ports: { definitions: DefinitionPorts; audience: AudiencePorts }, scope: BusinessScope, input: BroadcastDefinitionInput): Promise<BroadcastPreview> {
  const valid = await validateDefinition(ports, scope, input);
  const variables = parseVariableTemplates(input.variables);
  const broadcast = { template: { uuid: valid.template.uuid, name: valid.template.name, language: valid.template.language, category: valid.template.category } };
  const skipped: Record<string, number> = {};
  const seen = new Set<string>();
  let total = 0;
  let toSend = 0;
  // Keyed as freezing keys its recipients: a contact by its id, a uuid that names none by itself.
  const tally = (contact: AudienceContact | undefined, key: string) => {
    total += 1;
    const reason = seen.has(key) ? 'duplicate' : !contact ? 'invalid_row' : classifyContact(broadcast, variables, contact).reason;
    seen.add(key);
    if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
    else toSend += 1;
  };
  if (input.audience.kind === 'filter') {
    let after: string | null = null;
    for (;;) {
      const page = await ports.audience.contactsMatching(scope, input.audience.filter, valid.channel.id, after, FREEZE_BATCH_SIZE);
      page.forEach((contact) => tally(contact, contact.id));
      if (page.length < FREEZE_BATCH_SIZE) break;
      after = page[page.length - 1]!.id;
    }
  } else if (input.audience.kind === 'contacts') {
    const found = new Map((await ports.audience.contactsByIds(scope, input.audience.contact_ids)).map((contact) => [contact.id, contact]));
    input.audience.contact_ids.forEach((id) => tally(found.get(id)?.channel_id === valid.channel.id ? found.get(id) : undefined, id));
  } else if (valid.audience.kind === 'file') {
    const file = await previewFileAudience(ports.audience, scope, { ...broadcast, channel_id: valid.channel.id }, variables, valid.audience);
    total += file.total;
    toSend += file.toSend;
    for (const [reason, count] of Object.entries(file.skipped)) skipped[reason] = (skipped[reason] ?? 0) + count;
  }
  const remaining = await ports.definitions.messagingLimitRemaining(scope, valid.channel);
  const rate = effectiveRate({ max_per_second: input.max_per_second ?? null }, valid.channel.max_messages_per_second);
  return {
    total,
    skipped_by_reason: skipped,
    messaging_limit_remaining: remaining ?? undefined,
    estimated_seconds: Math.ceil(toSend / rate),
  };
}
