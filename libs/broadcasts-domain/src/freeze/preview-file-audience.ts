import type { BroadcastEntity, BusinessScope } from '@cmsg/dal';
import type { AudienceRow } from '../audience-file';
import type { AudienceContact, AudiencePorts } from '../core/audience-ports';
import type { ParsedVariables } from '../variables';
import { classifyContact } from './classify-contact';
import { type FileAudience, PHONE_LOOKUP_KEYS, fileRowsFrom, resumePoint, rowValues, sendablePhoneKey } from './file-rows';
import { PhoneKeySet } from './phone-key-set';


export interface FileAudienceTally {
  total: number;
  toSend: number;
  skipped: Record<string, number>;
}

type ValidRow = Extract<AudienceRow, { kind: 'valid' }>;

/**
 * A file audience counted as freezing it would classify it, without creating anything: the file is
 * streamed; a phone no contact of the channel has yet counts as a new contact (no names, no
 * attributes, consent unknown), as its upsert would create it. Duplicates are rows whose phone
 * digits an earlier row had (the contact the upsert would match), kept in a PhoneKeySet: bounded
 * memory (16 MiB at 1,000,000 rows).
 */
export async function previewFileAudience(
  audience: AudiencePorts,
  scope: BusinessScope,
  broadcast: Pick<BroadcastEntity, 'template' | 'channel_id'>,
  variables: ParsedVariables,
  source: FileAudience,
): Promise<FileAudienceTally> {
  const tally: FileAudienceTally = { total: 0, toSend: 0, skipped: {} };
  const skip = (reason: string) => (tally.skipped[reason] = (tally.skipped[reason] ?? 0) + 1);
  const seen = new PhoneKeySet();
  let waiting: { key: string; row: ValidRow }[] = [];
  const classifyWaiting = async () => {
    if (waiting.length === 0) return;
    const found = await audience.contactsByPhoneKeys(
      scope,
      broadcast.channel_id,
      waiting.map(({ key }) => key),
    );
    for (const { key, row } of waiting) {
      const { reason } = classifyContact(broadcast, variables, found.get(key) ?? newContactOf(key, broadcast.channel_id), { number: row.row, columns: rowValues(row, source) });
      if (reason) skip(reason);
      else tally.toSend += 1;
    }
    waiting = [];
  };
  for await (const row of fileRowsFrom(audience, scope, source, resumePoint(source, { offset: 0, rows: 0 }))) {
    tally.total += 1;
    if (row.kind === 'invalid') {
      skip('invalid_row');
      continue;
    }
    const key = sendablePhoneKey(row.phone);
    if (key === null) skip('invalid_phone');
    else if (!seen.add(key)) skip('duplicate');
    else waiting.push({ key, row });
    if (waiting.length >= PHONE_LOOKUP_KEYS) await classifyWaiting();
  }
  await classifyWaiting();
  return tally;
}

/** The contact an upsert of this phone would create. */
function newContactOf(phoneKey: string, channelId: string): AudienceContact {
  return {
    id: `new:${phoneKey}`,
    channel_id: channelId,
    phone: `+${phoneKey}`,
    chat_user_id: null,
    conversation_id: null,
    first_name: null,
    last_name: null,
    attributes: {},
    consent: { marketing: 'unknown', utility: 'unknown' },
  };
}
