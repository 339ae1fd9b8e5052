import type { AudienceRow } from '../audience-file';
import type { AudienceContact, AudiencePorts } from '../core/audience-ports';
import { businessScopeOf } from '../core/scope';
import type { ParsedVariables } from '../variables';
import { type FrozenRecipient, classifyContact, skippedRow } from './classify-contact';
import { type FileAudience, PHONE_LOOKUP_KEYS, fileRowsFrom, resumePoint, rowValues, sendablePhoneKey } from './file-rows';
import type { FreezeBatch } from './freeze-batch';
import type { BusinessScope, ClaimedBroadcast } from '@cmsg/dal';
import { mapWithConcurrency } from '@cmsg/platform';

export const FILE_FREEZE_LIMITS = {
  /** Rows per batch (the filter and contacts audiences' FREEZE_BATCH_SIZE). */
  rows: 500,
  /** A batch also ends once its rows span this many bytes: 500 rows of up to 1 MiB each must not sit in memory at once. */
  bytes: 4 * 1024 * 1024,
  /** Contact upserts in flight at once. */
  upserts: 8,
};

/**
 * The next rows of a file audience as recipients, in row order (seq = row order): each valid row's
 * contact found by its phone (100 phones a lookup), else created with the batch's other new phones
 * in a few writes (else, if that left it out, upserted on its own), then classified with the row's values; a bad row is skipped
 * `invalid_row`, a phone of other than 8 to 15 digits `invalid_phone`. The checkpoint moves to the
 * last row's end offset and number. Read again from the same checkpoint (a crash before it was
 * saved), the same rows give the same recipients: the upserts match the contacts they created.
 */
export async function readFileBatch(audience: AudiencePorts, { broadcast }: ClaimedBroadcast, source: FileAudience, variables: ParsedVariables, limits = FILE_FREEZE_LIMITS): Promise<FreezeBatch> {
  const scope = businessScopeOf(broadcast);
  const start = resumePoint(source, broadcast.freeze);
  const rows: AudienceRow[] = [];
  for await (const row of fileRowsFrom(audience, scope, source, start)) {
    rows.push(row);
    if (rows.length >= limits.rows || row.endOffset - start.startOffset >= limits.bytes) break;
  }
  const known = await existingContacts(audience, scope, broadcast.channel_id, rows);
  const created = await newContacts(audience, scope, broadcast.channel_id, rows, known);
  const recipientOf = async (row: AudienceRow): Promise<FrozenRecipient> => {
    const rowKey = `row:${row.row}`;
    if (row.kind === 'invalid') return skippedRow('invalid_row', rowKey, row.row, null);
    const phoneKey = sendablePhoneKey(row.phone);
    if (phoneKey === null) return skippedRow('invalid_phone', rowKey, row.row, row.phone);
    // An existing contact is what the upsert would match, unchanged; the upsert also heals one without its conversation.
    const existing = known.get(phoneKey) ?? created.get(phoneKey);
    const contact = existing?.conversation_id ? existing : await audience.upsertByPhone(scope, broadcast.channel_id, row.phone);
    if (contact === 'invalid_phone') return skippedRow('invalid_phone', rowKey, row.row, row.phone);
    return classifyContact(broadcast, variables, contact, { number: row.row, columns: rowValues(row, source) });
  };
  const recipients = await mapWithConcurrency(rows, limits.upserts, recipientOf);
  const last = rows[rows.length - 1];
  return {
    recipients,
    checkpoint: (nextSeq) => ({ ...broadcast.freeze, offset: last?.endOffset ?? broadcast.freeze.offset, rows: last?.row ?? broadcast.freeze.rows, next_seq: nextSeq }),
  };
}

/** The existing contacts of the rows' phones, PHONE_LOOKUP_KEYS keys a lookup. */
async function existingContacts(audience: AudiencePorts, scope: BusinessScope, channelId: string, rows: readonly AudienceRow[]): Promise<Map<string, AudienceContact>> {
  const keys = [...new Set(rows.flatMap((row) => (row.kind === 'valid' ? [sendablePhoneKey(row.phone)] : [])).filter((key): key is string => key !== null))];
  const found = new Map<string, AudienceContact>();
  for (let start = 0; start < keys.length; start += PHONE_LOOKUP_KEYS) {
    for (const [key, contact] of await audience.contactsByPhoneKeys(scope, channelId, keys.slice(start, start + PHONE_LOOKUP_KEYS))) found.set(key, contact);
  }
  return found;
}

/** The contacts of the rows' phones that no contact had at the lookup, created together (the first row's phone as written for each). */
async function newContacts(audience: AudiencePorts, scope: BusinessScope, channelId: string, rows: readonly AudienceRow[], known: ReadonlyMap<string, AudienceContact>): Promise<Map<string, AudienceContact>> {
  const phones = new Map<string, string>();
  for (const row of rows) {
    const key = row.kind === 'valid' ? sendablePhoneKey(row.phone) : null;
    if (key !== null && !known.has(key) && !phones.has(key)) phones.set(key, (row as { phone: string }).phone);
  }
  return phones.size === 0 ? new Map() : audience.createByPhones(scope, channelId, [...phones.values()]);
}
