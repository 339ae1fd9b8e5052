import type { WebhookStatus } from '@cmsg/chat-platform';
import { OutboundMessageNotYetRecorded, STATUS_ATTEMPTS_BEFORE_GIVING_UP, ingestDeliveryStatus } from './ingest-delivery-status.usecase';
import type { InboundStatusRecord } from './chat-inbound-record';
import { channelRow, conversationRow, inMemoryInbox, messageRow } from './testing/in-memory-inbox-ports';

const SENT_AT = new Date('2026-03-02T11:00:00Z');
/** 2026-03-02T11:05:00Z in the provider's Unix seconds. */
const REPORTED = String(Date.parse('2026-03-02T11:05:00Z') / 1000);

function status(overrides: Partial<WebhookStatus> & Pick<WebhookStatus, 'status'>, phoneNumberId = 'pn-1'): InboundStatusRecord {
  return { kind: 'status', phone_number_id: phoneNumberId, status: { id: 'wamid.1', timestamp: REPORTED, recipient_id: '16505551234', ...overrides }, received_at: '2026-03-02T11:05:01.000Z' };
}

describe('ingestDeliveryStatus', () => {
  let inbox: ReturnType<typeof inMemoryInbox>;
  beforeEach(() => {
    inbox = inMemoryInbox();
    const { repositories } = inbox;
    repositories.channelRows.push(channelRow('b1', 'c1', 'pn-1'), channelRow('b2', 'c2', 'pn-2'));
    repositories.conversationRows.push(conversationRow({ _id: 'conv-1', business_id: 'b1', contact_id: 'k1', channel_id: 'c1', created_at: SENT_AT }));
    repositories.messageRows.push(
      messageRow({ _id: 'm1', business_id: 'b1', conversation_id: 'conv-1', is_from_customer: false, created_at: SENT_AT, status: 'sent', body: 'Hola', provider_message_id: 'wamid.1', author: { type: 'ai_employee', uuid: 'ai-1', name: null } }),
      messageRow({ _id: 'm2', business_id: 'b2', conversation_id: 'conv-2', is_from_customer: false, created_at: SENT_AT, status: 'sent', provider_message_id: 'wamid.2' }),
    );
    inbox.aiEmployeeNames.set('ai-1', 'Ana');
  });

  const ingest = (record: InboundStatusRecord, attempt = 1) => ingestDeliveryStatus(inbox.dependencies, record, attempt);

  it('moves the message forward at the reported time, with its message.status_updated event, and tells broadcasts it was delivered', async () => {
    await expect(ingest(status({ status: 'delivered' }))).resolves.toBe('updated');

    const message = inbox.repositories.message('m1')!;
    expect(message).toMatchObject({ status: 'delivered', status_at: new Date('2026-03-02T11:05:00Z') });
    const author = { type: 'ai_employee', uuid: 'ai-1', name: 'Ana' };
    const entry = {
      id: expect.any(String),
      type: 'message.status_updated',
      conversation_id: 'conv-1',
      author,
      created_at: inbox.clock.at,
      data: expect.objectContaining({ uuid: 'm1', kind: 'message', direction: 'outbound', body: 'Hola', status: 'delivered', error: null, author }),
    };
    expect(message.outbox).toEqual([entry]);
    expect(inbox.recorded).toEqual([{ collection: 'messages', businessId: 'b1', documentId: 'm1', entry }]);
    expect(inbox.progress).toEqual(['delivered b1 m1 delivered']);
  });

  it('never moves a message back: a late status answers already_further, records nothing and keeps the pricing it carries', async () => {
    await ingest(status({ status: 'read' }));
    await expect(ingest(status({ status: 'delivered' }))).resolves.toBe('already_further');
    await expect(ingest(status({ status: 'sent', pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } }))).resolves.toBe('already_further');
    await expect(ingest(status({ status: 'failed', errors: [{ code: 131026 }] }))).resolves.toBe('already_further');

    expect(inbox.repositories.message('m1')).toMatchObject({ status: 'read', error: null, pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } });
    expect(inbox.recorded.map((event) => event.entry.data['status'])).toEqual(['read']);
    expect(inbox.progress).toEqual(['delivered b1 m1 read']);
  });

  it('is redelivery-safe: the same status twice changes the message and records its event once', async () => {
    await ingest(status({ status: 'delivered' }));
    await expect(ingest(status({ status: 'delivered' }))).resolves.toBe('already_further');
    expect(inbox.recorded).toHaveLength(1);
    expect(inbox.repositories.message('m1')!.outbox).toHaveLength(1);
  });

  it('keeps a failure as a send failure is kept: its provider code mapped to the catalog, and its pricing', async () => {
    await expect(
      ingest(status({ status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'Receiver is incapable' } }], pricing: { billable: false } })),
    ).resolves.toBe('updated');
    const error = { code: 'RECIPIENT_UNDELIVERABLE', message: 'The chat platform reported the message as failed (code 131026): Receiver is incapable', provider_code: '131026' };
    expect(inbox.repositories.message('m1')).toMatchObject({ status: 'failed', error, pricing: { billable: false, pricing_model: null, category: null } });
    expect(inbox.recorded[0]!.entry.data).toMatchObject({ status: 'failed', error, pricing: { billable: false } });
    expect(inbox.progress).toEqual([]);
    expect(inbox.consents).toEqual([]);
  });

  it('opts the contact out of marketing on a late 131050 failure (source provider), once when the status is delivered twice', async () => {
    const optedOut = status({ status: 'failed', errors: [{ code: 131050, title: 'User stopped marketing messages' }] });
    await expect(ingest(optedOut)).resolves.toBe('updated');
    await expect(ingest(optedOut)).resolves.toBe('already_further');
    expect(inbox.repositories.message('m1')).toMatchObject({ status: 'failed', error: { code: 'CONTACT_OPTED_OUT', provider_code: '131050' } });
    expect(inbox.consents).toEqual([
      { businessId: 'b1', update: { contactId: 'k1', conversationId: 'conv-1', consent: { marketing: 'opted_out' }, source: 'provider', author: { type: 'system', uuid: null, name: null } } },
    ]);
  });

  it('waits for an outbound message not recorded yet, then gives up as unknown_message', async () => {
    const early = status({ id: 'wamid.unknown', status: 'delivered' });
    for (let attempt = 1; attempt < STATUS_ATTEMPTS_BEFORE_GIVING_UP; attempt += 1) {
      await expect(ingest(early, attempt)).rejects.toBeInstanceOf(OutboundMessageNotYetRecorded);
    }
    await expect(ingest(early, STATUS_ATTEMPTS_BEFORE_GIVING_UP)).resolves.toBe('unknown_message');
    expect(inbox.recorded).toEqual([]);
  });

  it('finds the message within the channel business only', async () => {
    await expect(ingest(status({ id: 'wamid.2', status: 'delivered' }), STATUS_ATTEMPTS_BEFORE_GIVING_UP)).resolves.toBe('unknown_message');
    expect(inbox.repositories.message('m2')!.status).toBe('sent');
    await expect(ingest(status({ id: 'wamid.2', status: 'delivered' }, 'pn-2'))).resolves.toBe('updated');
    expect(inbox.recorded).toEqual([expect.objectContaining({ businessId: 'b2', documentId: 'm2' })]);
  });

  it('ignores statuses it does not know and channels it does not have, changing nothing', async () => {
    await expect(ingest(status({ status: 'deleted' }))).resolves.toBe('unknown_status');
    await expect(ingest(status({ status: 'delivered' }, 'pn-9'))).resolves.toBe('unknown_channel');
    expect(inbox.repositories.message('m1')!.status).toBe('sent');
    expect(inbox.recorded).toEqual([]);
  });

  it('dates a status whose timestamp cannot be read at the time it was ingested', async () => {
    await ingest(status({ status: 'delivered', timestamp: 'not-a-time' }));
    expect(inbox.repositories.message('m1')!.status_at).toEqual(inbox.clock.at);
  });
});
