import { parseChatInboundRecord } from './chat-inbound-record';

describe('parseChatInboundRecord', () => {
  const received_at = '2025-03-01T12:00:00.000Z';

  it('reads a message event as the gateway produced it (Dates serialised, extra fields dropped)', () => {
    const record = parseChatInboundRecord({
      kind: 'message',
      phone_number_id: 'pn-1',
      sender: { user_id: 'MX.abc', username: 'ana' },
      message: { from_user_id: 'MX.abc', id: 'wamid.1', timestamp: '1700000000', type: 'text', text: { body: 'hi' } },
      sent_at: '2023-11-14T22:13:20.000Z',
      received_at,
    });
    expect(record).toEqual({
      kind: 'message',
      phone_number_id: 'pn-1',
      sender: { user_id: 'MX.abc', username: 'ana' },
      message: { from_user_id: 'MX.abc', id: 'wamid.1', timestamp: '1700000000', type: 'text', text: { body: 'hi' } },
      received_at,
    });
  });

  it('reads a status event', () => {
    expect(parseChatInboundRecord({ kind: 'status', phone_number_id: 'pn-1', status: { id: 'wamid.2', status: 'read', timestamp: '1700000000' }, at: null, received_at }).kind).toBe('status');
  });

  it('refuses anything else (it goes to the dead-letter path)', () => {
    expect(() => parseChatInboundRecord({ kind: 'other', received_at })).toThrow();
    expect(() => parseChatInboundRecord({ kind: 'message', phone_number_id: 'pn-1', sender: {}, message: { id: 'x' }, received_at })).toThrow();
  });
});
