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
};

describe('toContact', () => {
  it('answers null for absent optional strings and keeps the rest', () => {
    const mapped = toContact(contact);
    expect(mapped).toEqual({
      ...contact,
      middle_name: null,
      last_name: null,
      second_last_name: null,
      chat_id: null,
      chat_username: null,
      acquisition_source: null,
    });
    expect(ContactListResponseSchema.safeParse({ items: [mapped], has_more: false, next_cursor: '' }).success).toBe(true);
  });
});
