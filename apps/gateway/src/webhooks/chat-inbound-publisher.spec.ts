import type { InboundEvent } from '@cmsg/chat-platform';
import { chatInboundKeyOf, chatInboundMessagesOf } from './chat-inbound-publisher';

const message = (sender: Extract<InboundEvent, { kind: 'message' }>['sender']): InboundEvent => ({
  kind: 'message',
  phone_number_id: 'pn-1',
  sender,
  message: { id: 'wamid.m', timestamp: '1700000000', type: 'text' },
  sent_at: new Date(1_700_000_000_000),
});
const status = (fields: { recipient_id?: string; recipient_user_id?: string }): InboundEvent => ({
  kind: 'status',
  phone_number_id: 'pn-1',
  status: { id: 'wamid.s', status: 'read', timestamp: '1700000000', ...fields },
  at: new Date(1_700_000_000_000),
});

describe('chatInboundKeyOf', () => {
  it('keys a sender by channel and phone digits, else platform user id', () => {
    expect(chatInboundKeyOf(message({ wa_id: '+52 1 55 1234 5678', user_id: 'MX.1' }))).toBe('pn-1:5215512345678');
    expect(chatInboundKeyOf(message({ user_id: 'MX.1', username: 'ana' }))).toBe('pn-1:MX.1');
    expect(chatInboundKeyOf(message({ username: 'ana' }))).toBe('pn-1:ana');
  });

  it('keys a status by its recipient the same way, so it queues behind that customer', () => {
    expect(chatInboundKeyOf(status({ recipient_id: '5215512345678' }))).toBe('pn-1:5215512345678');
    expect(chatInboundKeyOf(status({ recipient_user_id: 'MX.1' }))).toBe('pn-1:MX.1');
    expect(chatInboundKeyOf(status({}))).toBe('pn-1:wamid.s');
  });

  it('keys a template status update by account and template, so one template’s updates stay in order', () => {
    const update = { event: 'PAUSED', message_template_id: '594425479261596', message_template_name: 'order_update', message_template_language: 'es' };
    expect(chatInboundKeyOf({ kind: 'template_status', business_account_id: 'waba-1', update })).toBe('waba:waba-1:template:594425479261596');
  });

  it('keys a user preference by its customer like their messages, so a STOP and a resume keep their order', () => {
    const preference = { wa_id: '+52 1 55 1234 5678', category: 'marketing_messages', value: 'stop', timestamp: '1731705721' };
    expect(chatInboundKeyOf({ kind: 'user_preference', phone_number_id: 'pn-1', preference })).toBe('pn-1:5215512345678');
  });
});

describe('chatInboundMessagesOf', () => {
  it('adds when the gateway received the events', () => {
    const [produced] = chatInboundMessagesOf([message({ wa_id: '1' })], new Date('2025-01-01T00:00:00Z'));
    expect(produced!.value).toMatchObject({ kind: 'message', received_at: '2025-01-01T00:00:00.000Z' });
    expect(JSON.parse(JSON.stringify(produced!.value)).sent_at).toBe('2023-11-14T22:13:20.000Z');
  });
});
