import { ContactListResponseSchema } from '@cmsg/api-schemas';
import type { Contact } from '@cmsg/proto';
import { toContact } from './contact-list.mapper';

const contact: Contact = {
  uuid: '11111111-2222-4333-8444-555555555555',
  first_name: 'Ana',
  middle_name: undefined,
  last_name: undefined,
  second_last_name: undefined,
  full_name: 'Ana',
  chat_id: undefined,
  chat_user_id: 'BSUID.1',
  chat_username: undefined,
  acquisition_source: undefined,
  is_tester: true,
  created_at: '2025-01-31T10:00:00.000Z',
  updated_at: '2025-01-31T11:00:00.000Z',
  channel: 'main-line',
  phone: undefined,
  email: 'ana@example.com',
  language: undefined,
  external_id: undefined,
  attributes: { plan: 'gold', orders: 3 },
  consent: { marketing: { status: 'opted_out', source: 'keyword', updated_at: '2025-01-31T11:00:00.000Z' }, utility: { status: 'unknown', source: undefined, updated_at: undefined } },
  conversation_uuid: '22222222-3333-4444-8555-666666666666',
};

describe('toContact', () => {
  it('answers null for absent optional strings and keeps the rest', () => {
    const mapped = toContact(contact);
    const { conversation_uuid: conversationUuid, ...rest } = contact;
    expect(mapped).toEqual({
      ...rest,
      middle_name: null,
      last_name: null,
      second_last_name: null,
      chat_id: null,
      chat_username: null,
      acquisition_source: null,
      phone: null,
      language: null,
      external_id: null,
      consent: { marketing: { status: 'opted_out', source: 'keyword', updated_at: '2025-01-31T11:00:00.000Z' }, utility: { status: 'unknown', source: null, updated_at: null } },
      conversation: { uuid: conversationUuid },
    });
    expect(ContactListResponseSchema.safeParse({ items: [mapped], has_more: false, next_cursor: '' }).success).toBe(true);
  });
});
