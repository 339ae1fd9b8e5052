import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, eventually, minutesAgo, storedCollection, templateStatusWebhook } from '@cmsg/testing';
import { deliverWebhook } from '../inbound/inbound-fixtures';
import { type TemplateSeed, templateSeed, uniqueWabaId } from './templates-fixtures';

/** The template's stored status, read until it is `expected` (ingestion runs behind Kafka). */
async function statusBecomes(template: TemplateSeed, expected: string): Promise<void> {
  await eventually(
    () => storedCollection('templates').findOne({ _id: template.uuid }),
    (stored) => stored?.['status'] === expected,
  );
}

describe('message_template_status_update webhooks (CONTRACT 10.3)', () => {
  let business: TestBusiness;
  let other: TestBusiness;
  const waba = uniqueWabaId();
  const otherWaba = uniqueWabaId();
  const providerId = Math.floor(Math.random() * 1e12);
  const conversationUuid = randomUUID();
  let byId: TemplateSeed;
  let byName: TemplateSeed;
  let sendable: TemplateSeed;
  let marker: TemplateSeed;
  let theirs: TemplateSeed;

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.channels![0]!.business_account_id = waba;
      byId = templateSeed(seed, { name: 'order_update', provider_template_id: String(providerId) });
      byName = templateSeed(seed, { name: 'welcome', language: 'es_MX' });
      sendable = templateSeed(seed, { name: 'thanks', body: 'Gracias por tu compra.' });
      marker = templateSeed(seed, { name: 'marker', status: 'pending' });
      contactSeed(seed, { conversation: { uuid: conversationUuid, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hola', created_at: minutesAgo(5) }] } });
    });
    // Another business with a template of the same name and language, under another account.
    other = await createTestBusiness((seed) => {
      seed.channels![0]!.business_account_id = otherWaba;
      theirs = templateSeed(seed, { name: 'welcome', language: 'es_MX' });
    });
  });

  const deliver = async (input: Omit<Parameters<typeof templateStatusWebhook>[0], 'message_template_language'> & { message_template_language?: string }) => {
    const response = await deliverWebhook(templateStatusWebhook({ message_template_language: 'es', ...input }));
    expect(response.status).toBe(200);
  };

  it('applies PAUSED, DISABLED, REJECTED and APPROVED to the template of that provider id', async () => {
    for (const [event, status] of [
      ['PAUSED', 'paused'],
      ['DISABLED', 'disabled'],
      ['REJECTED', 'rejected'],
      ['APPROVED', 'approved'],
    ] as const) {
      await deliver({ waba_id: waba, event, message_template_id: providerId, message_template_name: 'order_update', reason: event === 'REJECTED' ? 'INCORRECT_CATEGORY' : 'NONE' });
      await statusBecomes(byId, status);
    }
    expect((await business.api.get(`/templates/${byId.uuid}`)).body.status).toBe('approved');
  });

  it('matches by name and language within the account when the seed names no provider id, never in another business', async () => {
    await deliver({ waba_id: waba, event: 'PAUSED', message_template_id: 1, message_template_name: 'welcome', message_template_language: 'es_MX' });
    await statusBecomes(byName, 'paused');
    expect((await other.api.get(`/templates/${theirs.uuid}`)).body.status).toBe('approved');
  });

  it('changes nothing for an unknown template, another account, an unknown account or an event it does not map', async () => {
    await deliver({ waba_id: otherWaba, event: 'PAUSED', message_template_id: providerId, message_template_name: 'order_update' });
    await deliver({ waba_id: uniqueWabaId(), event: 'DISABLED', message_template_id: providerId, message_template_name: 'thanks' });
    // Same key (account and template id) from here on: once the marker's APPROVED is applied, the two updates before it were handled.
    await deliver({ waba_id: waba, event: 'PAUSED', message_template_id: 3, message_template_name: 'no_such_template' });
    await deliver({ waba_id: waba, event: 'PENDING_DELETION', message_template_id: 3, message_template_name: 'thanks' });
    await deliver({ waba_id: waba, event: 'APPROVED', message_template_id: 3, message_template_name: 'marker' });
    await statusBecomes(marker, 'approved');
    const stored = await storedCollection('templates')
      .find({ business_id: { $in: [business.businessId, other.businessId] } }, { projection: { status: 1 } })
      .toArray();
    expect(Object.fromEntries(stored.map((template) => [template._id, template['status']]))).toEqual({
      [byId.uuid]: 'approved',
      [byName.uuid]: 'paused',
      [sendable.uuid]: 'approved',
      [marker.uuid]: 'approved',
      [theirs.uuid]: 'approved',
    });
  });

  it('refuses to send a template the webhook paused: 422 TEMPLATE_NOT_APPROVED, no message', async () => {
    const send = () => business.api.post('/conversation/messages/template', { conversation: { uuid: conversationUuid }, template: { uuid: sendable.uuid } });
    expect((await send()).status).toBe(201);
    await deliver({ waba_id: waba, event: 'PAUSED', message_template_id: 4, message_template_name: 'thanks' });
    await statusBecomes(sendable, 'paused');
    const before = await storedCollection('messages').countDocuments({ business_id: business.businessId, conversation_id: conversationUuid });
    const refused = await send();
    expect([refused.status, refused.body.code]).toEqual([422, 'TEMPLATE_NOT_APPROVED']);
    expect(await storedCollection('messages').countDocuments({ business_id: business.businessId, conversation_id: conversationUuid })).toBe(before);
  });
});
