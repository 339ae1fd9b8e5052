import { randomUUID } from 'node:crypto';
import { type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { lastRequestSeq, messageRequests, textRequestBody } from './messaging-fixtures';

describe('payment markers in text messages (CONTRACT 7b)', () => {
  let business: TestBusiness;
  let withoutProfile: TestBusiness;
  const phone = uniquePhone();
  const conversations = { paying: randomUUID(), noPayment: randomUUID(), other: randomUUID(), noProfile: randomUUID() };
  const payments = { older: randomUUID(), latest: randomUUID(), paid: randomUUID(), sparse: randomUUID(), foreign: randomUUID() };
  const open = [{ uuid: randomUUID(), is_from_customer: true, body: 'quiero pagar', created_at: minutesAgo(10) }];

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      seed.payment_profile = { bank_name: 'Banco Uno', account_holder: 'ACME SA de CV', clabe: '012180001234567897', instructions: 'Usa tu referencia.' };
      contactSeed(seed, {
        phone,
        conversation: {
          uuid: conversations.paying,
          messages: open,
          payments: [
            { uuid: payments.older, amount: '100.00', currency: 'MXN', reference: 'R-OLD', link: 'https://pay.example/old', due_date: '2025-01-31', created_at: 'now-2d' },
            { uuid: payments.latest, amount: '1250.50', currency: 'MXN', reference: 'R-NEW', link: 'https://pay.example/new', due_date: '2025-02-28', created_at: 'now-1d' },
            // Newer, but no longer open.
            { uuid: payments.paid, amount: '5.00', currency: 'USD', link: 'https://pay.example/paid', status: 'paid', created_at: 'now-1h' },
          ],
        },
      });
      contactSeed(seed, {
        conversation: {
          uuid: conversations.noPayment,
          messages: open.map((message) => ({ ...message, uuid: randomUUID() })),
          payments: [{ uuid: payments.sparse, status: 'paid', amount: '9.00' }],
        },
      });
      contactSeed(seed, {
        conversation: {
          uuid: conversations.other,
          messages: open.map((message) => ({ ...message, uuid: randomUUID() })),
          payments: [{ uuid: payments.foreign, amount: '1.00', currency: 'MXN', link: 'https://pay.example/foreign' }],
        },
      });
    });
    withoutProfile = await createTestBusiness((seed) => {
      contactSeed(seed, { conversation: { uuid: conversations.noProfile, messages: open.map((message) => ({ ...message, uuid: randomUUID() })) } });
    });
  });

  const send = (conversation: string, text: string, owner: TestBusiness = business) =>
    owner.api.post('/conversation/messages/text', { conversation: { uuid: conversation }, text });

  it("replaces each field from the conversation's latest open payment", async () => {
    const since = await lastRequestSeq();
    const response = await send(
      conversations.paying,
      'Total: [[payment.amount]] [[payment.currency]] (ref [[payment.reference]], vence [[payment.due_date]]). Paga en [[payment.link]]',
    );
    expect(response.status).toBe(201);
    const expected = 'Total: 1250.50 MXN (ref R-NEW, vence 2025-02-28). Paga en https://pay.example/new';
    expect((await messageRequests(business, since)).map((request) => request.body)).toEqual([textRequestBody(phone, expected)]);
    // The timeline keeps what the customer read.
    expect((await storedCollection('messages').findOne({ _id: response.body.message.uuid }))!.body).toBe(expected);
  });

  it('takes a named payment with [[payment.<field>:<uuid>]], even one that is not open', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.paying, `Anterior: [[payment.link:${payments.older}]]; pagado: [[payment.amount:${payments.paid}]]`);
    expect(response.status).toBe(201);
    expect((await messageRequests(business, since)).map((request) => request.body)).toEqual([
      textRequestBody(phone, 'Anterior: https://pay.example/old; pagado: 5.00'),
    ]);
  });

  it('builds [[payment.bank_details]] from the business payment profile', async () => {
    const since = await lastRequestSeq();
    expect((await send(conversations.paying, 'Transferencia:\n[[payment.bank_details]]')).status).toBe(201);
    expect((await messageRequests(business, since)).map((request) => request.body)).toEqual([
      textRequestBody(phone, 'Transferencia:\nBank: Banco Uno\nAccount holder: ACME SA de CV\nCLABE: 012180001234567897\nUsa tu referencia.'),
    ]);
  });

  it.each<[string, string, number, string]>([
    ['an unknown field', 'Pay [[payment.link]] with [[payment.discount]]', 422, 'PAYMENT_MARKER_UNKNOWN'],
    ['a payment uuid of another conversation', '[[payment.link:PAYMENT_FOREIGN]]', 404, 'PAYMENT_NOT_FOUND'],
    ['an unknown payment uuid', `[[payment.link:${randomUUID()}]]`, 404, 'PAYMENT_NOT_FOUND'],
    ['a field the named payment lacks', `[[payment.reference:PAYMENT_PAID]]`, 422, 'PAYMENT_MARKER_DATA_UNAVAILABLE'],
  ])('refuses %s and sends nothing', async (_case, text, status, code) => {
    const since = await lastRequestSeq();
    const response = await send(conversations.paying, text.replace('PAYMENT_FOREIGN', payments.foreign).replace('PAYMENT_PAID', payments.paid));
    expect([response.status, response.body.code]).toEqual([status, code]);
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('answers 422 PAYMENT_MARKER_DATA_UNAVAILABLE when the conversation has no open payment', async () => {
    const response = await send(conversations.noPayment, 'Paga en [[payment.link]]');
    expect([response.status, response.body.code]).toEqual([422, 'PAYMENT_MARKER_DATA_UNAVAILABLE']);
  });

  it('answers 500 PAYMENT_PROFILE_GENERATION_FAILED for bank details without a payment profile', async () => {
    const response = await send(conversations.noProfile, '[[payment.bank_details]]', withoutProfile);
    expect([response.status, response.body.code]).toEqual([500, 'PAYMENT_PROFILE_GENERATION_FAILED']);
    expect(await messageRequests(withoutProfile)).toEqual([]);
  });
});
