import { randomUUID } from 'node:crypto';
import { type BusinessSeedInput, type TestBusiness, contactSeed, createTestBusiness, minutesAgo, uniquePhone, storedCollection } from '@cmsg/testing';
import { lastRequestSeq, messageRequests, storedMessage } from './messaging-fixtures';

type TemplateSeed = NonNullable<BusinessSeedInput['templates']>[number];

describe('POST /{slug}/conversation/messages/template', () => {
  let business: TestBusiness;
  const phone = uniquePhone();
  const conversations = { closed: randomUUID(), open: randomUUID(), tester: randomUUID(), noPhone: randomUUID(), secondChannel: randomUUID() };
  const ids = {
    order: randomUUID(),
    plain: randomUUID(),
    image: randomUUID(),
    pending: randomUUID(),
    fake: randomUUID(),
    auth: randomUUID(),
    welcomeMain: randomUUID(),
    welcomeSecond: randomUUID(),
    promoSecond: randomUUID(),
    promoThird: randomUUID(),
    onlySecond: randomUUID(),
    long: randomUUID(),
  };

  beforeAll(async () => {
    business = await createTestBusiness((seed) => {
      const main = seed.channels![0]!.public_key;
      const second = `${seed.slug}-second`;
      const third = `${seed.slug}-third`;
      seed.channels!.push(
        { public_key: second, name: 'Second', phone_number_id: `pn2-${seed.slug}`, access_token: 'second-token' },
        { public_key: third, name: 'Third', phone_number_id: `pn3-${seed.slug}`, access_token: 'third-token' },
      );
      const approved = (fields: Partial<TemplateSeed> & Pick<TemplateSeed, 'uuid' | 'name' | 'body'>): TemplateSeed => ({
        language: 'es_MX',
        status: 'approved',
        category: 'utility',
        channel: main,
        ...fields,
      });
      seed.templates = [
        approved({
          uuid: ids.order,
          name: 'order_update',
          body: 'Hola {{1}}, tu pedido {{2}} está en camino.',
          header_type: 'text',
          buttons: [
            { type: 'quick_reply', text: 'Gracias' },
            { type: 'url', text: 'Rastrear', url: 'https://shop.example/track/{{1}}' },
          ],
        }),
        approved({ uuid: ids.plain, name: 'thanks', body: 'Gracias por tu compra.' }),
        approved({ uuid: ids.image, name: 'catalog', body: 'Nuevo catálogo.', header_type: 'image' }),
        approved({ uuid: ids.pending, name: 'not_yet', body: 'Pending one.', status: 'pending' }),
        approved({ uuid: ids.fake, name: 'fake_test', body: 'Only for testers {{1}}.', is_fake: true }),
        approved({ uuid: ids.auth, name: 'login_code', body: 'Tu código es {{1}}.', category: 'authentication' }),
        approved({ uuid: ids.welcomeMain, name: 'welcome', body: 'Bienvenido (main) {{1}}.' }),
        approved({ uuid: ids.welcomeSecond, name: 'welcome', body: 'Bienvenido (second) {{1}}.', channel: second }),
        approved({ uuid: ids.promoSecond, name: 'promo', body: 'Promo (second).', channel: second }),
        approved({ uuid: ids.promoThird, name: 'promo', body: 'Promo (third).', channel: third }),
        approved({ uuid: ids.onlySecond, name: 'only_second', body: 'From the second channel.', channel: second }),
        approved({ uuid: ids.long, name: 'long_one', body: `${'x'.repeat(1000)} {{1}}` }),
      ];
      contactSeed(seed, { phone, conversation: { uuid: conversations.closed, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'old', created_at: minutesAgo(3 * 24 * 60) }] } });
      contactSeed(seed, { conversation: { uuid: conversations.open, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hi', created_at: minutesAgo(5) }] } });
      contactSeed(seed, { is_tester: true, conversation: { uuid: conversations.tester } });
      contactSeed(seed, { phone: null, chat_user_id: `MX.${randomUUID()}`, conversation: { uuid: conversations.noPhone } });
      contactSeed(seed, { channel: second, conversation: { uuid: conversations.secondChannel } });
    });
  });

  const send = (conversation: string, body: Record<string, unknown>) =>
    business.api.post('/conversation/messages/template', { conversation: { uuid: conversation }, ...body });
  const codeOf = async (conversation: string, body: Record<string, unknown>) => {
    const response = await send(conversation, body);
    return [response.status, response.body.code];
  };
  const orderVariables = [
    { index: 2, value: 'A-17' },
    { index: 1, value: 'Ana' },
  ];

  it('sends an approved template with the window closed: header, variables and URL button parameter, as the Cloud API expects', async () => {
    const since = await lastRequestSeq();
    const response = await send(conversations.closed, {
      template: { uuid: ids.order },
      variables: orderVariables,
      header: { type: 'text', value: 'Pedido A-17' },
      button_parameters: [{ index: 1, sub_type: 'url', value: 'A-17' }],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ message: { uuid: expect.any(String), status: 'sent', created_at: expect.any(String) } });

    const [request, ...more] = await messageRequests(business, since);
    expect(more).toEqual([]);
    expect(request!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone.replace(/\D/g, ''),
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'es_MX' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Pedido A-17' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: 'A-17' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A-17' }] },
        ],
      },
    });
    expect(await storedMessage(response.body.message.uuid)).toMatchObject({
      content_type: 'template',
      body: 'Hola Ana, tu pedido A-17 está en camino.',
      status: 'sent',
      provider_message_id: request!.provider_message_id,
    });
  });

  it('sends a template without parameters with no components, and a static text header may be omitted', async () => {
    const since = await lastRequestSeq();
    expect((await send(conversations.closed, { template: { name: 'thanks', language: 'es_MX' } })).status).toBe(201);
    const [request] = await messageRequests(business, since);
    expect((request!.body as { template: unknown }).template).toEqual({ name: 'thanks', language: { code: 'es_MX' } });

    const withoutHeader = await send(conversations.closed, { template: { uuid: ids.order }, variables: orderVariables, button_parameters: [{ index: 1, sub_type: 'url', value: 'A-1' }] });
    expect(withoutHeader.status).toBe(201);
  });

  describe('resolving by name and language', () => {
    it("prefers the conversation's channel when several channels have the template", async () => {
      const response = await send(conversations.open, { template: { name: 'welcome', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
      expect(response.status).toBe(201);
      expect((await storedMessage(response.body.message.uuid))!.body).toBe('Bienvenido (main) Ana.');
      const fromSecond = await send(conversations.secondChannel, { template: { name: 'welcome', language: 'es_MX' }, variables: [{ index: 1, value: 'Ana' }] });
      expect((await storedMessage(fromSecond.body.message.uuid))!.body).toBe('Bienvenido (second) Ana.');
    });

    it('uses the only channel that has it', async () => {
      const response = await send(conversations.open, { template: { name: 'only_second', language: 'es_MX' } });
      expect(response.status).toBe(201);
    });

    it("answers 409 TEMPLATE_AMBIGUOUS when 2+ other channels have it and the conversation's does not", async () => {
      expect(await codeOf(conversations.open, { template: { name: 'promo', language: 'es_MX' } })).toEqual([409, 'TEMPLATE_AMBIGUOUS']);
      expect((await send(conversations.open, { template: { uuid: ids.promoThird } })).status).toBe(201);
    });

    it('answers 404 TEMPLATE_NOT_FOUND for an unknown uuid, name or language', async () => {
      expect(await codeOf(conversations.open, { template: { uuid: randomUUID() } })).toEqual([404, 'TEMPLATE_NOT_FOUND']);
      expect(await codeOf(conversations.open, { template: { name: 'nope', language: 'es_MX' } })).toEqual([404, 'TEMPLATE_NOT_FOUND']);
      expect(await codeOf(conversations.open, { template: { name: 'thanks', language: 'en_US' } })).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    });
  });

  it('answers 422 TEMPLATE_NOT_APPROVED for a template that is not approved', async () => {
    expect(await codeOf(conversations.open, { template: { uuid: ids.pending } })).toEqual([422, 'TEMPLATE_NOT_APPROVED']);
  });

  it('sends a test-only template to tester conversations only (simulated there)', async () => {
    const body = { template: { uuid: ids.fake }, variables: [{ index: 1, value: 'x' }] };
    expect(await codeOf(conversations.open, body)).toEqual([422, 'TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION']);
    const since = await lastRequestSeq();
    const simulated = await send(conversations.tester, body);
    expect(simulated.status).toBe(201);
    expect(simulated.body.message.status).toBe('simulated');
    expect(await messageRequests(business, since)).toEqual([]);
    expect(await storedMessage(simulated.body.message.uuid)).toMatchObject({ is_simulated: true, content_type: 'template', body: 'Only for testers x.' });
  });

  it('answers 409 AUTH_TEMPLATE_REQUIRES_PHONE for an authentication template to a contact without phone', async () => {
    expect(await codeOf(conversations.noPhone, { template: { uuid: ids.auth }, variables: [{ index: 1, value: '123456' }] })).toEqual([409, 'AUTH_TEMPLATE_REQUIRES_PHONE']);
    expect((await send(conversations.closed, { template: { uuid: ids.auth }, variables: [{ index: 1, value: '123456' }] })).status).toBe(201);
  });

  it('answers 409 BSUID_SEND_DISABLED for any other template to a contact without phone', async () => {
    expect(await codeOf(conversations.noPhone, { template: { uuid: ids.plain } })).toEqual([409, 'BSUID_SEND_DISABLED']);
  });

  it('answers 422 TEMPLATE_VARIABLES_INVALID for a wrong count, a missing index, a blank value or a bad button parameter', async () => {
    const since = await lastRequestSeq();
    const order = (fields: Record<string, unknown>) => ({ template: { uuid: ids.order }, button_parameters: [{ index: 1, sub_type: 'url', value: 'A' }], ...fields });
    for (const body of [
      order({ variables: [{ index: 1, value: 'Ana' }] }),
      order({ variables: [...orderVariables, { index: 3, value: 'extra' }] }),
      order({ variables: [{ index: 1, value: 'Ana' }, { index: 3, value: 'A-17' }] }),
      order({ variables: [{ index: 1, value: 'Ana' }, { index: 1, value: 'A-17' }] }),
      order({ variables: [{ index: 1, value: 'Ana' }, { index: 2, value: '   ' }] }),
      order({ variables: orderVariables, button_parameters: [] }),
      order({ variables: orderVariables, button_parameters: [{ index: 0, sub_type: 'url', value: 'x' }] }),
    ]) {
      expect({ body, result: await codeOf(conversations.open, body) }).toEqual({ body, result: [422, 'TEMPLATE_VARIABLES_INVALID'] });
    }
    expect(await messageRequests(business, since)).toEqual([]);
  });

  it('answers 400 TEMPLATE_HEADER_MISMATCH when the header does not match the declared one', async () => {
    expect(await codeOf(conversations.open, { template: { uuid: ids.plain }, header: { type: 'text', value: 'Hi' } })).toEqual([400, 'TEMPLATE_HEADER_MISMATCH']);
    expect(await codeOf(conversations.open, { template: { uuid: ids.image } })).toEqual([400, 'TEMPLATE_HEADER_MISMATCH']);
    expect(await codeOf(conversations.open, { template: { uuid: ids.image }, header: { type: 'video', file_uuid: randomUUID() } })).toEqual([
      400,
      'TEMPLATE_HEADER_MISMATCH',
    ]);
    expect(
      await codeOf(conversations.open, {
        template: { uuid: ids.order },
        variables: orderVariables,
        header: { type: 'document', file_uuid: randomUUID() },
        button_parameters: [{ index: 1, sub_type: 'url', value: 'A' }],
      }),
    ).toEqual([400, 'TEMPLATE_HEADER_MISMATCH']);
    // The right type: the header file must be a confirmed upload.
    expect(await codeOf(conversations.open, { template: { uuid: ids.image }, header: { type: 'image', file_uuid: randomUUID() } })).toEqual([404, 'FILE_NOT_FOUND']);
  });

  it('answers 422 TEMPLATE_BODY_TOO_LONG when the interpolated body exceeds 1024 characters', async () => {
    expect((await send(conversations.open, { template: { uuid: ids.long }, variables: [{ index: 1, value: 'y'.repeat(23) }] })).status).toBe(201);
    expect(await codeOf(conversations.open, { template: { uuid: ids.long }, variables: [{ index: 1, value: 'y'.repeat(24) }] })).toEqual([422, 'TEMPLATE_BODY_TOO_LONG']);
  });

  describe('payment markers (0.2.0)', () => {
    it('leaves markers in body variables as written', async () => {
      const since = await lastRequestSeq();
      const response = await send(conversations.open, { template: { name: 'welcome', language: 'es_MX' }, variables: [{ index: 1, value: '[[payment.link]]' }] });
      expect(response.status).toBe(201);
      const [request] = await messageRequests(business, since);
      expect((request!.body as { template: { components: unknown } }).template.components).toEqual([
        { type: 'body', parameters: [{ type: 'text', text: '[[payment.link]]' }] },
      ]);
    });

    it('refuses markers in the header text and in button parameters: 422 PAYMENT_MARKER_UNSUPPORTED_FIELD', async () => {
      const base = { template: { uuid: ids.order }, variables: orderVariables };
      expect(
        await codeOf(conversations.open, { ...base, header: { type: 'text', value: '[[payment.amount]]' }, button_parameters: [{ index: 1, sub_type: 'url', value: 'A' }] }),
      ).toEqual([422, 'PAYMENT_MARKER_UNSUPPORTED_FIELD']);
      expect(await codeOf(conversations.open, { ...base, button_parameters: [{ index: 1, sub_type: 'url', value: '[[payment.reference]]' }] })).toEqual([
        422,
        'PAYMENT_MARKER_UNSUPPORTED_FIELD',
      ]);
    });
  });

  it('validates the body shape: 400 INVALID_REQUEST', async () => {
    for (const body of [
      { template: { name: 'thanks' } },
      { template: {} },
      { template: { uuid: ids.plain }, variables: [{ index: 0, value: 'x' }] },
      { template: { uuid: ids.plain }, variables: [{ index: 1, value: '' }] },
      { template: { uuid: ids.plain }, header: { type: 'text' } },
      { template: { uuid: ids.plain }, header: { type: 'location' } },
      { template: { uuid: ids.plain }, button_parameters: [{ index: 0, sub_type: 'phone', value: 'x' }] },
    ]) {
      expect({ body, result: await codeOf(conversations.open, body) }).toEqual({ body, result: [400, 'INVALID_REQUEST'] });
    }
  });

  it('keeps the author of every template send', async () => {
    const response = await send(conversations.open, { template: { uuid: ids.plain } });
    expect(await storedCollection('messages').findOne({ _id: response.body.message.uuid })).toMatchObject({ author: { type: 'api_token', uuid: business.tokenUuid } });
  });
});
