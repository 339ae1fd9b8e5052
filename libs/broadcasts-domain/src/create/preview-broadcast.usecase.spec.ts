import { businessScope } from '@cmsg/dal';
import { freezeNextBatch } from '../freeze/freeze-audience';
import { BUSINESS, OTHER_BUSINESS, aBroadcast, aContact, aDefinition, aDefinitionWorld } from '../testing/broadcast-builders';
import { type BroadcastData, inMemoryBroadcastStore } from '../testing/in-memory-broadcast-store';
import { type StoredAudienceContact, inMemoryAudience, inMemoryDefinitions } from '../testing/in-memory-broadcast-ports';
import { previewBroadcast } from './preview-broadcast.usecase';

const scope = businessScope(BUSINESS);

function contacts(): StoredAudienceContact[] {
  return [
    aContact('c1', { attributes: { plan: 'gold' } }),
    aContact('c2', { attributes: { plan: 'gold' }, consent: { marketing: 'opted_out', utility: 'unknown' } }),
    aContact('c3', { attributes: { plan: 'gold' }, phone: '123' }),
    aContact('c4', { attributes: { plan: 'gold' }, first_name: null }),
    aContact('c5', { attributes: { plan: 'silver' } }),
    aContact('c6', { attributes: { plan: 'gold' }, channel_id: 'ch2' }),
    aContact('c7', { attributes: { plan: 'gold' }, business_id: OTHER_BUSINESS }),
  ];
}

describe('previewBroadcast', () => {
  const ports = () => ({ definitions: inMemoryDefinitions(aDefinitionWorld()), audience: inMemoryAudience(contacts()) });

  it("classifies a filter audience of the channel as freezing would, with the channel's units left and the time to send at its rate", async () => {
    const preview = await previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'filter', filter: { plan: 'gold' } }, variables: [{ index: 1, value: '{{contact.first_name}}' }] }));
    expect(preview).toEqual({ total: 4, skipped_by_reason: { opted_out: 1, invalid_phone: 1, missing_variable: 1 }, messaging_limit_remaining: 700, estimated_seconds: 1 });
  });

  it('estimates at the broadcast max_per_second, never above the channel rate', async () => {
    const many = Array.from({ length: 1234 }, (_, index) => aContact(`c${String(index).padStart(4, '0')}`));
    const audience = inMemoryAudience(many);
    const definitions = inMemoryDefinitions(aDefinitionWorld());
    await expect(previewBroadcast({ definitions, audience }, scope, aDefinition({ max_per_second: 10 }))).resolves.toMatchObject({ total: 1234, skipped_by_reason: {}, estimated_seconds: 124 });
    await expect(previewBroadcast({ definitions, audience }, scope, aDefinition({ max_per_second: 1000 }))).resolves.toMatchObject({ total: 1234, estimated_seconds: 16 });
    await expect(previewBroadcast({ definitions, audience }, scope, aDefinition())).resolves.toMatchObject({ estimated_seconds: 16 });
  });

  it('skips repeated contacts as duplicate and unknown ones, or of another channel or business, as invalid_row', async () => {
    const preview = await previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'contacts', contact_ids: ['c1', 'c1', 'c5', 'nobody', 'c6', 'c7'] } }));
    expect(preview).toEqual({ total: 6, skipped_by_reason: { duplicate: 1, invalid_row: 3 }, messaging_limit_remaining: 700, estimated_seconds: 1 });
  });

  it('answers no messaging_limit_remaining for an unlimited channel, and nothing to send in no time', async () => {
    const world = aDefinitionWorld();
    world.remaining = {};
    const preview = await previewBroadcast({ definitions: inMemoryDefinitions(world), audience: inMemoryAudience([]) }, scope, aDefinition());
    expect(preview).toEqual({ total: 0, skipped_by_reason: {}, messaging_limit_remaining: undefined, estimated_seconds: 0 });
  });

  it('counts a file audience as freezing would classify it, creating no contact', async () => {
    const all = contacts();
    const content = ['phone,name', '+5215500000001,Ana', '12,Bob', '+52 155 0000 0001,Ana', 'x', '+5215512345678,Dee', '+5215500000002,'].join('\n');
    const audience = inMemoryAudience(all, [{ business_id: BUSINESS, id: 'f1', module: 'broadcast_audiences', status: 'confirmed', mime_type: 'text/csv', content }]);
    all[0]!.consent = { marketing: 'opted_out', utility: 'unknown' };
    const preview = await previewBroadcast({ definitions: inMemoryDefinitions(aDefinitionWorld()), audience }, scope, aDefinition({ variables: [{ index: 1, value: '{{row.name}}' }], audience: { kind: 'file', file_uuid: 'f1' } }));
    expect(preview).toEqual({ total: 6, skipped_by_reason: { invalid_phone: 1, duplicate: 1, invalid_row: 1, opted_out: 1, missing_variable: 1 }, messaging_limit_remaining: 700, estimated_seconds: 1 });
    expect(audience.contacts).toHaveLength(7);
  });

  /** The skips freezing this contact list gives, over the same contacts. */
  const frozenSkips = async (contactIds: string[]) => {
    const data: BroadcastData = { broadcasts: [aBroadcast({ status: 'preparing', audience: { kind: 'contacts', contact_ids: contactIds } })], recipients: [] };
    const store = inMemoryBroadcastStore(data);
    const claimed = (await store.broadcasts.claim(scope, data.broadcasts[0]!, new Date('2030-01-01T00:00:00Z')))!;
    while ((await freezeNextBatch({ store, audience: inMemoryAudience(contacts()) }, claimed, new Date(claimed.leaseUntil.getTime() + 1))) === 'more');
    return (await store.recipients.countOutcomes(scope, 'bc1')).skippedByReason;
  };

  it('counts a contact list as freezing it skips it', async () => {
    const ids = ['c1', 'c2', 'c3', 'c1', 'c5', 'c2', 'nobody', 'c6'];
    const preview = await previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'contacts', contact_ids: ids } }));
    expect(preview.skipped_by_reason).toEqual(await frozenSkips(ids));
  });

  // Product bug (preview-broadcast.usecase.ts, tally): a contact uuid that names no contact of the channel
  // (erased, unknown, another channel's) is counted invalid_row each time it is listed, while freezing
  // keys its skipped row by the uuid, so a repeat is a `duplicate`: preview {invalid_row: 2}, frozen
  // {invalid_row: 1, duplicate: 1}.
  it('counts a repeated contact uuid that names no contact as freezing it does', async () => {
    const ids = ['nobody', 'nobody', 'c6', 'c6'];
    const preview = await previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'contacts', contact_ids: ids } }));
    expect(preview.skipped_by_reason).toEqual(await frozenSkips(ids));
  });

  it('validates as creating does', async () => {
    await expect(previewBroadcast(ports(), scope, aDefinition({ channel: 'theirs' }))).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
    await expect(previewBroadcast(ports(), scope, aDefinition({ template: { uuid: 'tpl-draft' } }))).rejects.toMatchObject({ code: 'TEMPLATE_NOT_APPROVED' });
    await expect(previewBroadcast(ports(), scope, aDefinition({ variables: [{ index: 1, value: '{{row.plan}}' }] }))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(previewBroadcast(ports(), scope, aDefinition({ audience: { kind: 'contacts', contact_ids: [] } }))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
