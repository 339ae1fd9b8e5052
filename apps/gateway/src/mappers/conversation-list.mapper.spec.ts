import { ConversationListResponseSchema } from '@cmsg/api-schemas';
import type { ConversationListItem } from '@cmsg/proto';
import { toConversationListResponse } from './conversation-list.mapper';

const bare: ConversationListItem = {
  uuid: '11111111-2222-4333-8444-555555555555',
  contact: { uuid: '22222222-2222-4333-8444-555555555555', name: undefined, profile_name: undefined, phone: undefined, chat_user_id: undefined },
  last_message_at: undefined,
  last_message_preview: undefined,
  unread_count: 0,
  mailbox: undefined,
  ai_employee: undefined,
  tags: [],
  messaging_window_expires_at: undefined,
  is_tester: false,
  inbox_status: 'resolved',
  updated_at: '2025-01-31T09:00:00.000Z',
};

describe('toConversationListResponse', () => {
  it('answers null for absent optional and message fields', () => {
    const response = toConversationListResponse({ items: [bare], next_cursor: '', has_more: false });
    expect(response.items[0]).toEqual({
      uuid: bare.uuid,
      contact: { uuid: bare.contact!.uuid, name: null, profile_name: null, phone: null, chat_user_id: null },
      last_message_at: null,
      last_message_preview: null,
      unread_count: 0,
      mailbox: null,
      ai_employee: null,
      tags: [],
      messaging_window_expires_at: null,
      is_tester: false,
      inbox_status: 'resolved',
      updated_at: '2025-01-31T09:00:00.000Z',
    });
    expect(ConversationListResponseSchema.safeParse(response).success).toBe(true);
  });

  it('refuses an inbox status outside the public enum (an upstream bug, answered 500)', () => {
    expect(() => toConversationListResponse({ items: [{ ...bare, inbox_status: 'archived' }], next_cursor: '', has_more: false })).toThrow(/inbox_status/);
  });

  it('keeps present values and the page fields', () => {
    const item: ConversationListItem = {
      ...bare,
      contact: { ...bare.contact!, name: 'Ana', phone: '5215512345678' },
      last_message_at: '2025-01-31T10:00:00.000Z',
      last_message_preview: { body: 'hola', content_type: 'text', is_from_customer: true },
      unread_count: 3,
      mailbox: { uuid: '33333333-2222-4333-8444-555555555555', name: 'Sales' },
      ai_employee: { uuid: '44444444-2222-4333-8444-555555555555', name: 'Ava' },
      tags: [{ uuid: '55555555-2222-4333-8444-555555555555', name: 'vip', color: '#f00' }],
      messaging_window_expires_at: '2025-02-01T10:00:00.000Z',
    };
    const response = toConversationListResponse({ items: [item], next_cursor: 'next', has_more: true });
    expect(response).toMatchObject({ next_cursor: 'next', has_more: true, items: [{ contact: { name: 'Ana', profile_name: null }, unread_count: 3 }] });
    expect(response.items[0].last_message_preview).toEqual(item.last_message_preview);
    expect(ConversationListResponseSchema.safeParse(response).success).toBe(true);
  });
});
