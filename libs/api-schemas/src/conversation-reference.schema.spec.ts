import { ConversationReferenceSchema, StatusConversationReferenceSchema } from './conversation-reference.schema';

const uuid = '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c';

describe('ConversationReferenceSchema', () => {
  it.each([{ uuid }, { chat_user_id: 'BSUID.123' }, { username: '@ana' }, { phone: '+52 1 55 1234 5678' }])('accepts %j alone', (reference) => {
    expect(ConversationReferenceSchema.parse(reference)).toEqual(reference);
  });

  it('accepts several members and a channel; precedence is the service’s job', () => {
    const reference = { uuid, phone: '+5215512345678', channel: 'ch_main' };
    expect(ConversationReferenceSchema.parse(reference)).toEqual(reference);
  });

  it.each([{}, { channel: 'ch_main' }])('rejects %j: none of the four members', (reference) => {
    const result = ConversationReferenceSchema.safeParse(reference);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('one of uuid, chat_user_id, username, phone is required');
  });

  it.each([{ uuid: 'not-a-uuid' }, { uuid: '' }, { phone: '' }, { chat_user_id: '' }, { username: 7 }])('rejects %j', (reference) => {
    expect(ConversationReferenceSchema.safeParse(reference).success).toBe(false);
  });

  it('accepts any 8-4-4-4-12 hex uuid, not only RFC 9562 versions', () => {
    expect(ConversationReferenceSchema.safeParse({ uuid: 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa' }).success).toBe(true);
  });

  it('drops unknown members', () => {
    expect(ConversationReferenceSchema.parse({ uuid, nickname: 'x' })).toEqual({ uuid });
  });
});

describe('StatusConversationReferenceSchema', () => {
  it.each([{ uuid }, { chat_user_id: 'BSUID.123' }, { phone: '+5215512345678', channel: 'ch_main' }])('accepts %j', (reference) => {
    expect(StatusConversationReferenceSchema.parse(reference)).toEqual(reference);
  });

  it('does not resolve by username: a username alone is missing the reference', () => {
    const result = StatusConversationReferenceSchema.safeParse({ username: 'ana' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('one of uuid, chat_user_id, phone is required');
  });

  it('drops a username sent beside a usable member', () => {
    expect(StatusConversationReferenceSchema.parse({ username: 'ana', phone: '5215512345678' })).toEqual({ phone: '5215512345678' });
  });
});
