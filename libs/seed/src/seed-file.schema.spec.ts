import { parseSeedFile, SeedFileError, type SeedFileInput } from './seed-file.schema';

const TOKEN = `cmsg_${'ab'.repeat(32)}`;
const IDS = {
  business: '0b7a4c1e-2f6d-4e8a-9c3b-5d1f7e9a2b4c',
  token: '1c8b5d2f-3a7e-4f9b-8d4c-6e2a8f0b3c5d',
  employee: '2d9c6e3a-4b8f-4a0c-9e5d-7f3b9a1c4d6e',
  tag: '3e0d7f4b-5c9a-4b1d-8f6e-8a4c0b2d5e7f',
  category: '4f1e8a5c-6d0b-4c2e-9a7f-9b5d1c3e6f8a',
  mailbox: '5a2f9b6d-7e1c-4d3f-8b8a-0c6e2d4f7a9b',
  template: '6b3a0c7e-8f2d-4e4a-9c9b-1d7f3e5a8b0c',
  contact: '7c4b1d8f-9a3e-4f5b-8d0c-2e8a4f6b9c1d',
  message: '8d5c2e9a-0b4f-4a6c-9e1d-3f9b5a7c0d2e',
  payment: '9e6d3f0b-1c5a-4b7d-8f2e-4a0c6b8d1e3f',
};

function validSeed(): SeedFileInput {
  return {
    businesses: [
      {
        uuid: IDS.business,
        slug: 'Acme',
        name: 'Acme',
        time_zone: 'america/mexico_city',
        api_tokens: [{ uuid: IDS.token, token: TOKEN }],
        channels: [{ public_key: 'main', name: 'Main', phone: '+52 1 55 0000 0000', phone_number_id: '1001', default_scheduled_template: 'follow_up' }],
        ai_employees: [{ uuid: IDS.employee, name: 'Ana', model: 'gpt-4o-mini', wallet_tokens: 1000 }],
        tags: [{ uuid: IDS.tag, name: 'VIP' }],
        mailbox_categories: [{ uuid: IDS.category, name: 'Sales', mailboxes: [{ uuid: IDS.mailbox, name: 'Leads' }] }],
        templates: [{ uuid: IDS.template, name: 'follow_up', language: 'es_MX', status: 'approved', category: 'utility', body: 'Hola {{1}}, {{2}}', channel: 'main' }],
        contacts: [
          {
            uuid: IDS.contact,
            channel: 'main',
            phone: '+52 1 55 1234 5678',
            chat_username: '@Juan',
            conversation: {
              ai_employee: IDS.employee,
              mailbox: IDS.mailbox,
              tags: [IDS.tag],
              messages: [{ uuid: IDS.message, is_from_customer: true, body: 'hi', created_at: 'now-2h' }],
              payments: [{ uuid: IDS.payment, amount: 1250.5, currency: 'MXN' }],
            },
          },
        ],
      },
    ],
  };
}

function issuesOf(input: unknown): string[] {
  try {
    parseSeedFile(input);
  } catch (error) {
    if (error instanceof SeedFileError) return [...error.issues];
    throw error;
  }
  return [];
}

function mutated(change: (seed: ReturnType<typeof validSeed>) => void): SeedFileInput {
  const seed = validSeed();
  change(seed);
  return seed;
}

describe('seed file schema', () => {
  it('accepts a complete business and applies the defaults', () => {
    const [business] = parseSeedFile(validSeed()).businesses;
    expect(business.time_zone).toBe('America/Mexico_City');
    expect(business.api_tokens[0].revoked).toBe(false);
    expect(business.api_tokens[0].scopes).toEqual(['conversations:read', 'conversations:write', 'webhooks:manage']);
    expect(business.tags[0]).toMatchObject({ color: '', is_default: false });
    expect(business.webhooks).toEqual([]);
    expect(business.payment_profile).toBeNull();
    const contact = business.contacts[0];
    expect(contact.chat_username).toBe('Juan');
    expect(contact.is_tester).toBe(false);
    expect(contact.conversation.inbox_status).toBe('resolved');
    expect(contact.conversation.messages[0]).toMatchObject({ content_type: 'text', media_transcription_pending: false });
    expect(contact.conversation.payments[0]).toMatchObject({ amount: '1250.5', status: 'open', link: null });
  });

  it('gives a contact without a conversation an empty one', () => {
    const seed = mutated((s) => delete s.businesses[0].contacts![0].conversation);
    expect(parseSeedFile(seed).businesses[0].contacts[0].conversation).toMatchObject({ messages: [], tags: [], ai_employee: null, inbox_status: 'resolved' });
  });

  it('accepts what it produced (parsing is idempotent)', () => {
    const parsed = parseSeedFile(validSeed());
    expect(parseSeedFile(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  it.each([
    ['uppercase hex', `cmsg_${'AB'.repeat(32)}`],
    ['63 hex characters', `cmsg_${'a'.repeat(63)}`],
    ['another prefix', `tok_${'a'.repeat(64)}`],
  ])('rejects a token with %s', (_case, token) => {
    expect(issuesOf(mutated((s) => (s.businesses[0].api_tokens![0].token = token))).join()).toContain('businesses[0].api_tokens[0].token');
  });

  it('keeps the scopes a token names, once each, in catalog order', () => {
    const seed = mutated((s) => (s.businesses[0].api_tokens![0].scopes = ['webhooks:manage', 'conversations:read', 'webhooks:manage']));
    expect(parseSeedFile(seed).businesses[0].api_tokens[0].scopes).toEqual(['conversations:read', 'webhooks:manage']);
  });

  it.each([
    ['an unknown scope', ['conversations:read', 'contacts:read'], 'businesses[0].api_tokens[0].scopes[1]: expected one of conversations:read, conversations:write, webhooks:manage'],
    ['no scope', [], 'businesses[0].api_tokens[0].scopes: a token needs at least one scope'],
  ])('rejects a token with %s', (_case, scopes, issue) => {
    expect(issuesOf(mutated((s) => (s.businesses[0].api_tokens![0].scopes = scopes as never)))).toEqual([issue]);
  });

  it.each(['2025-03-01T09:30:00Z', '2025-03-01T09:30:00.123-06:00', 'now', 'now-2h', 'now+30m', 'now-3d', 'now-1w', 'now-45s'])('accepts the time %s', (time) => {
    expect(issuesOf(mutated((s) => (s.businesses[0].contacts![0].created_at = time)))).toEqual([]);
  });

  it.each(['2025-03-01', '2025-03-01T09:30:00', 'yesterday', 'now-2', 'now - 2h', 'now-2y'])('rejects the time %s', (time) => {
    expect(issuesOf(mutated((s) => (s.businesses[0].contacts![0].created_at = time)))[0]).toMatch(/^businesses\[0\]\.contacts\[0\]\.created_at: expected an ISO 8601/);
  });

  it('rejects a time zone that is not IANA', () => {
    expect(issuesOf(mutated((s) => (s.businesses[0].time_zone = 'Mars/Olympus_Mons')))).toEqual(['businesses[0].time_zone: unknown IANA time zone: Mars/Olympus_Mons']);
  });

  it('rejects unknown keys, so typos do not pass silently, but allows $comment', () => {
    expect(issuesOf(mutated((s) => Object.assign(s.businesses[0], { is_testr: true })))[0]).toMatch(/is_testr/);
    expect(issuesOf(mutated((s) => Object.assign(s.businesses[0], { $comment: 'local demos only' })))).toEqual([]);
  });

  it('checks references within the business', () => {
    const other = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    const issues = issuesOf(
      mutated((s) => {
        const conversation = s.businesses[0].contacts![0].conversation!;
        conversation.ai_employee = other;
        conversation.mailbox = other;
        conversation.tags = [other];
        s.businesses[0].contacts![0].channel = 'nope';
        s.businesses[0].templates![0].channel = 'nope';
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        `businesses[0].contacts[0].channel: unknown channel nope in this business`,
        `businesses[0].templates[0].channel: unknown channel nope in this business`,
        `businesses[0].contacts[0].conversation.ai_employee: unknown ai employee ${other} in this business`,
        `businesses[0].contacts[0].conversation.mailbox: unknown mailbox ${other} in this business`,
        `businesses[0].contacts[0].conversation.tags[0]: unknown tag ${other} in this business`,
        'businesses[0].channels[0].default_scheduled_template: no template named follow_up on channel main',
      ]),
    );
  });

  it('rejects duplicate ids and slugs across the whole file', () => {
    const issues = issuesOf(
      mutated((s) => {
        const copy = validSeed().businesses[0];
        copy.slug = 'ACME';
        copy.uuid = undefined;
        s.businesses.push(copy);
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        'businesses[1].slug: duplicate business slug acme (first at businesses[0].slug)',
        `businesses[1].contacts[0].uuid: duplicate contact uuid ${IDS.contact} (first at businesses[0].contacts[0].uuid)`,
        'businesses[1].channels[0].phone_number_id: duplicate channel phone_number_id 1001 (first at businesses[0].channels[0].phone_number_id)',
        expect.stringMatching(/^businesses\[1\]\.api_tokens\[0\]\.token: duplicate api token/),
      ]),
    );
  });

  it('needs a phone or a chat_user_id on a contact', () => {
    const contactless = mutated((s) => (s.businesses[0].contacts![0].phone = null));
    expect(issuesOf(contactless)).toEqual(['businesses[0].contacts[0]: a contact needs a phone or a chat_user_id']);
    const byUserId = mutated((s) => Object.assign(s.businesses[0].contacts![0], { phone: null, chat_user_id: 'MX.123' }));
    expect(issuesOf(byUserId)).toEqual([]);
  });

  it('checks template variables, outbound transcription flags and phones', () => {
    expect(issuesOf(mutated((s) => (s.businesses[0].templates![0].variable_count = 1)))).toEqual(['businesses[0].templates[0].variable_count: the body uses {{2}}']);
    const outbound = mutated((s) => Object.assign(s.businesses[0].contacts![0].conversation!.messages![0], { is_from_customer: false, media_transcription_pending: true }));
    expect(issuesOf(outbound)).toEqual(['businesses[0].contacts[0].conversation.messages[0].media_transcription_pending: only customer messages await transcription']);
    expect(issuesOf(mutated((s) => (s.businesses[0].contacts![0].phone = 'call me')))[0]).toMatch(/^businesses\[0\]\.contacts\[0\]\.phone: expected a phone number/);
  });

  it('lowercases uuids and rejects malformed ones', () => {
    const upper = mutated((s) => (s.businesses[0].contacts![0].uuid = IDS.contact.toUpperCase()));
    expect(parseSeedFile(upper).businesses[0].contacts[0].uuid).toBe(IDS.contact);
    expect(issuesOf(mutated((s) => (s.businesses[0].contacts![0].uuid = 'contact-1')))[0]).toMatch(/^businesses\[0\]\.contacts\[0\]\.uuid:/);
  });

  it('needs at least one business', () => {
    expect(issuesOf({ businesses: [] })[0]).toMatch(/^businesses:/);
    expect(issuesOf(null)[0]).toMatch(/^\(root\):/);
  });
});
