import { ConversationStatusSnapshotSchema } from '@cmsg/api-schemas';
import type { ConversationStatus } from '@cmsg/proto';
import { toConversationStatusSnapshot } from './conversation-status.mapper';

const full: ConversationStatus = {
  conversation: { uuid: '11111111-2222-4333-8444-555555555555', phone: '5215512345678', chat_user_id: 'BSUID.1' },
  window: { status: 'open', expires_at: '2025-02-01T10:00:00.000Z', hours_remaining: 12.25 },
  assignment: { ai_employee: { uuid: '22222222-2222-4333-8444-555555555555', name: 'Ava' } },
  mailbox: { uuid: '33333333-2222-4333-8444-555555555555', name: 'Sales' },
  tags: [{ uuid: '44444444-2222-4333-8444-555555555555', name: 'vip', color: '#f00' }],
  inbox_status: 'resolved',
  last_message: { uuid: '55555555-2222-4333-8444-555555555555', is_from_customer: true, created_at: '2025-01-31T10:00:00.000Z' },
  is_tester: true,
  tester_virtual_now: '2025-01-31T12:00:00.000Z',
};

describe('toConversationStatusSnapshot', () => {
  it('maps every field to the public snapshot', () => {
    const snapshot = toConversationStatusSnapshot(full);
    expect(ConversationStatusSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot).toEqual({ ...full, window: { ...full.window }, assignment: { ai_employee: full.assignment?.ai_employee } });
  });

  it('answers null for every absent optional or message field', () => {
    const snapshot = toConversationStatusSnapshot({
      ...full,
      conversation: { uuid: full.conversation!.uuid, phone: undefined, chat_user_id: undefined },
      window: { status: 'closed', expires_at: undefined, hours_remaining: 0 },
      assignment: undefined,
      mailbox: undefined,
      last_message: undefined,
      is_tester: false,
      tester_virtual_now: undefined,
    });
    expect(snapshot).toMatchObject({
      conversation: { phone: null, chat_user_id: null },
      window: { status: 'closed', expires_at: null, hours_remaining: 0 },
      assignment: { ai_employee: null },
      mailbox: null,
      last_message: null,
      tester_virtual_now: null,
    });
    expect(ConversationStatusSnapshotSchema.safeParse(snapshot).success).toBe(true);
  });

  it('refuses values outside the public enums instead of passing them on', () => {
    expect(() => toConversationStatusSnapshot({ ...full, inbox_status: 'archived' })).toThrow(/inbox_status/);
    expect(() => toConversationStatusSnapshot({ ...full, window: { ...full.window!, status: 'ajar' } })).toThrow(/window.status/);
  });

  it('refuses a snapshot without its required messages', () => {
    expect(() => toConversationStatusSnapshot({ ...full, window: undefined })).toThrow(/window/);
  });
});
