import { inboundEventsOf, webhookPayloadSchema } from './webhook-payload';

/** Shaped after the provider's documented examples. */
const inbound = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [
              { profile: { name: 'Sheena Nelson' }, wa_id: '16505551234', user_id: 'US.13491208655302741918' },
              { profile: { name: 'Uma', username: 'uma.k' }, user_id: 'US.99' },
            ],
            messages: [
              { from: '16505551234', from_user_id: 'US.13491208655302741918', id: 'wamid.A', timestamp: '1749416383', type: 'text', text: { body: 'Hi' } },
              {
                from_user_id: 'US.99',
                id: 'wamid.B',
                timestamp: '1749416390',
                type: 'image',
                image: { id: '1003383421387256', mime_type: 'image/jpeg', sha256: 'abc', caption: 'receipt' },
              },
              {
                from: '16505551234',
                id: 'wamid.C',
                timestamp: '1749416391',
                type: 'interactive',
                interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
                context: { from: '15550783881', id: 'wamid.OUT' },
              },
              { from: '16505551234', id: 'wamid.D', timestamp: '1749416392', type: 'location', location: { latitude: 1, longitude: 2 } },
            ],
          },
        },
        { field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: 1 } },
      ],
    },
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            statuses: [
              { id: 'wamid.OUT', status: 'delivered', timestamp: '1749416400', recipient_id: '16505551234' },
              {
                id: 'wamid.OUT2',
                status: 'failed',
                timestamp: '1749416401',
                recipient_id: '16505551234',
                errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'more than 24 hours' } }],
              },
            ],
          },
        },
      ],
    },
  ],
};

describe('webhookPayloadSchema', () => {
  it('parses messages, statuses and foreign change fields', () => {
    expect(webhookPayloadSchema.safeParse(inbound).success).toBe(true);
  });

  it('refuses another object kind', () => {
    expect(webhookPayloadSchema.safeParse({ ...inbound, object: 'page' }).success).toBe(false);
  });

  it('refuses a messages change whose value is malformed instead of letting it pass as a foreign field', () => {
    const broken = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp' } }] }] };
    expect(webhookPayloadSchema.safeParse(broken).success).toBe(false);
  });
});

describe('inboundEventsOf', () => {
  const events = inboundEventsOf(webhookPayloadSchema.parse(inbound));

  it('yields one event per message and status, in order, skipping other fields', () => {
    expect(events.map((event) => (event.kind === 'message' ? event.message.id : event.kind === 'status' ? event.status.id : event.kind))).toEqual([
      'wamid.A',
      'wamid.B',
      'wamid.C',
      'wamid.D',
      'wamid.OUT',
      'wamid.OUT2',
    ]);
  });

  it('joins each message with its contact, by phone or by user id', () => {
    const [first, second] = events;
    expect(first).toMatchObject({
      kind: 'message',
      phone_number_id: '106540352242922',
      sender: { wa_id: '16505551234', user_id: 'US.13491208655302741918', profile_name: 'Sheena Nelson' },
    });
    expect(first?.kind === 'message' && first.sent_at.toISOString()).toBe('2025-06-08T20:59:43.000Z');
    expect(second).toMatchObject({ sender: { user_id: 'US.99', username: 'uma.k', profile_name: 'Uma' } });
    expect(second?.kind === 'message' && second.sender.wa_id).toBeUndefined();
    expect(second?.kind === 'message' && second.message.image).toEqual({ id: '1003383421387256', mime_type: 'image/jpeg', sha256: 'abc', caption: 'receipt' });
  });

  it('keeps button replies and failed status errors', () => {
    expect(events[2]).toMatchObject({ message: { interactive: { button_reply: { id: 'yes' } }, context: { id: 'wamid.OUT' } } });
    expect(events[5]).toMatchObject({ kind: 'status', status: { status: 'failed', errors: [{ code: 131047 }] } });
  });
});

describe('template status updates', () => {
  const payload = (changes: unknown[]) => webhookPayloadSchema.parse({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', time: 1674864290, changes }] });

  it('yields one event per update, named by the business account, the id kept as a string', () => {
    const events = inboundEventsOf(
      payload([
        {
          field: 'message_template_status_update',
          value: { event: 'PAUSED', message_template_id: 594425479261596, message_template_name: 'order_update', message_template_language: 'es_MX', reason: 'NONE' },
        },
        { field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: '77', message_template_name: 'welcome', message_template_language: 'en' } },
      ]),
    );
    expect(events).toEqual([
      {
        kind: 'template_status',
        business_account_id: '102290129340398',
        update: { event: 'PAUSED', message_template_id: '594425479261596', message_template_name: 'order_update', message_template_language: 'es_MX', reason: 'NONE' },
      },
      {
        kind: 'template_status',
        business_account_id: '102290129340398',
        update: { event: 'APPROVED', message_template_id: '77', message_template_name: 'welcome', message_template_language: 'en' },
      },
    ]);
  });

  it('skips an update whose value is malformed and keeps the rest of the payload', () => {
    const events = inboundEventsOf(
      payload([
        { field: 'message_template_status_update', value: { event: 'APPROVED' } },
        { field: 'message_template_status_update', value: { event: 'REJECTED', message_template_id: 5, message_template_name: 'promo', message_template_language: 'es', reason: null } },
      ]),
    );
    expect(events).toEqual([
      { kind: 'template_status', business_account_id: '102290129340398', update: { event: 'REJECTED', message_template_id: '5', message_template_name: 'promo', message_template_language: 'es', reason: null } },
    ]);
  });
});

describe('user preferences', () => {
  const payload = (changes: unknown[]) => webhookPayloadSchema.parse({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes }] });
  const value = (preferences: unknown[]) => ({
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
    user_preferences: preferences,
  });

  it('yields one event per preference on the channel that received it, the numeric timestamp kept as a string', () => {
    const events = inboundEventsOf(
      payload([
        {
          field: 'user_preferences',
          value: value([
            { wa_id: '16505551234', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value: 'stop', timestamp: 1731705721 },
            { wa_id: '16505559999', category: 'marketing_messages', value: 'resume', timestamp: '1731705722' },
          ]),
        },
      ]),
    );
    expect(events).toEqual([
      {
        kind: 'user_preference',
        phone_number_id: '106540352242922',
        preference: { wa_id: '16505551234', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value: 'stop', timestamp: '1731705721' },
      },
      { kind: 'user_preference', phone_number_id: '106540352242922', preference: { wa_id: '16505559999', category: 'marketing_messages', value: 'resume', timestamp: '1731705722' } },
    ]);
  });

  it('skips a malformed preferences value and keeps the rest of the payload', () => {
    const events = inboundEventsOf(
      payload([
        { field: 'user_preferences', value: { metadata: { phone_number_id: '1' }, user_preferences: [{ category: 'marketing_messages', value: 'stop' }] } },
        { field: 'user_preferences', value: value([{ wa_id: '16505551234', category: 'marketing_messages', value: 'stop', timestamp: 1 }]) },
      ]),
    );
    expect(events).toEqual([{ kind: 'user_preference', phone_number_id: '106540352242922', preference: { wa_id: '16505551234', category: 'marketing_messages', value: 'stop', timestamp: '1' } }]);
  });
});
