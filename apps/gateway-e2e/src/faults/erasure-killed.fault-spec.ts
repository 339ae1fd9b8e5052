import { randomBytes, randomUUID } from 'node:crypto';
import { scanStoredDocuments, storedCollection, uniquePhone } from '@cmsg/testing';
import { type FaultStack, reportFault, startFaultStack } from './fault-stack';

const PLANTED_MESSAGES = 3_000;

/**
 * The conversations service killed with SIGKILL right after it answered an erasure's 202 (CONTRACT
 * 10.1, docs/contacts.md "Erasure"): the restarted service finishes it, contact.erased is recorded
 * once, and nothing planted is left.
 */
describe('a contact erasure cut off by kill -9 of the conversations service', () => {
  let fault: FaultStack;

  beforeAll(async () => {
    fault = await startFaultStack({ conversations: 1, tokens: 1 });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
  });

  it('is finished by the restarted service: nothing planted is left, contact.erased is recorded once', async () => {
    const marker = `killed-erasure-${randomBytes(6).toString('hex')}`;
    const created = await fault.business.api.post('/contacts', { phone: uniquePhone(), first_name: marker });
    expect(created.status).toBe(201);
    const { uuid, conversation } = created.body.contact as { uuid: string; conversation: { uuid: string } };
    const now = Date.now();
    await storedCollection('messages').insertMany(
      Array.from({ length: PLANTED_MESSAGES }, (_, index) => ({
        _id: randomUUID() as never,
        business_id: fault.business.businessId,
        conversation_id: conversation.uuid,
        is_from_customer: true,
        body: `${marker} message ${index}`,
        content_type: 'text',
        status: 'received',
        media_transcription_pending: false,
        is_simulated: false,
        created_at: new Date(now - (PLANTED_MESSAGES - index) * 1000),
      })),
    );

    const conversations = fault.stack.process('conversations');
    const requestedAt = Date.now();
    const erased = await fault.business.api.delete(`/contacts/${uuid}`);
    expect(erased.status).toBe(202);
    await conversations.stop('SIGKILL');
    const atKill = await storedCollection('contact_erasures').findOne({ _id: uuid as never });
    const messagesAtKill = await storedCollection('messages').countDocuments({ conversation_id: conversation.uuid });
    conversations.start();

    const events = storedCollection('events');
    const deadline = Date.now() + 150_000;
    while ((await events.countDocuments({ business_id: fault.business.businessId, type: 'contact.erased', 'data.contact.uuid': uuid })) === 0) {
      if (Date.now() > deadline) throw new Error(`no contact.erased 150 s after the restart; the erasure: ${JSON.stringify(await storedCollection('contact_erasures').findOne({ _id: uuid as never }))}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const erasedAfterMs = Date.now() - requestedAt;
    // A moment for a second recording, if the restarted service and the first pass both finished.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await events.countDocuments({ business_id: fault.business.businessId, type: 'contact.erased', 'data.contact.uuid': uuid })).toBe(1);
    expect((await scanStoredDocuments([marker])).found.get(marker) ?? {}).toEqual({});
    expect(await storedCollection('contact_erasures').findOne({ _id: uuid as never })).toMatchObject({ state: 'erased', conversation_id: conversation.uuid });
    reportFault('conversations service killed right after an erasure was accepted', {
      messages_planted: PLANTED_MESSAGES,
      messages_left_at_kill: messagesAtKill,
      settling_at_kill: atKill?.['state'] === 'settling' ? 1 : 0,
      erased_after_ms: erasedAfterMs,
      left_after: 0,
    });
  });
});
