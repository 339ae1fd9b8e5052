import { CatalogError } from '@cmsg/errors';
import { buildMessageRequest } from './message-body';
import type { MessageContent } from './message-content';
import { resolveRecipient, type Recipient } from './recipient';

const phone: Recipient = { kind: 'phone', phone: '5215512345678' };

function prepareFailure(content: MessageContent): CatalogError {
  try {
    buildMessageRequest(phone, content);
  } catch (error) {
    return error as CatalogError;
  }
  throw new Error('expected PREPARE_FAILED');
}

describe('resolveRecipient', () => {
  it('prefers the phone, as digits', () => {
    expect(resolveRecipient({ phone: '+52 1 (55) 1234-5678', user_id: 'MX.123' }, { bsuidSendEnabled: true })).toEqual(phone);
  });

  it('uses the user id when there is no phone and BSUID sending is on', () => {
    expect(resolveRecipient({ phone: null, user_id: 'US.13491208655302741918' }, { bsuidSendEnabled: true })).toEqual({
      kind: 'user_id',
      user_id: 'US.13491208655302741918',
    });
  });

  it('refuses a phone-less contact when BSUID sending is off', () => {
    expect(() => resolveRecipient({ user_id: 'US.1' }, { bsuidSendEnabled: false })).toThrow(
      expect.objectContaining({ code: 'BSUID_SEND_DISABLED', httpStatus: 409 }),
    );
  });

  it('is PREPARE_FAILED when there is nothing to address', () => {
    expect(() => resolveRecipient({ phone: ' ', user_id: '' }, { bsuidSendEnabled: true })).toThrow(
      expect.objectContaining({ code: 'PREPARE_FAILED' }),
    );
  });
});

describe('buildMessageRequest', () => {
  it('builds a text message to a phone', () => {
    expect(buildMessageRequest(phone, { type: 'text', body: 'Hola' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5215512345678',
      type: 'text',
      text: { body: 'Hola', preview_url: false },
    });
  });

  it('addresses a BSUID through `recipient` and never sets `to`', () => {
    const body = buildMessageRequest({ kind: 'user_id', user_id: 'US.134' }, { type: 'text', body: 'Hi' });
    expect(body).toMatchObject({ recipient: 'US.134' });
    expect(body).not.toHaveProperty('to');
  });

  it('builds media by link, with caption and filename where the API takes them', () => {
    expect(buildMessageRequest(phone, { type: 'image', link: 'https://files.example/a.jpg', caption: 'look' })).toMatchObject({
      type: 'image',
      image: { link: 'https://files.example/a.jpg', caption: 'look' },
    });
    expect(buildMessageRequest(phone, { type: 'audio', link: 'https://files.example/a.ogg' })).toMatchObject({
      audio: { link: 'https://files.example/a.ogg' },
    });
    expect(
      buildMessageRequest(phone, { type: 'document', link: 'https://files.example/x', caption: 'invoice', filename: 'invoice.pdf' }),
    ).toMatchObject({ document: { link: 'https://files.example/x', caption: 'invoice', filename: 'invoice.pdf' } });
  });

  it('builds an interactive message with reply buttons', () => {
    const body = buildMessageRequest(phone, {
      type: 'interactive',
      body: 'Pick one',
      buttons: [
        { id: 'yes', title: 'Yes' },
        { id: 'no', title: 'No' },
      ],
    });
    expect(body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pick one' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
            { type: 'reply', reply: { id: 'no', title: 'No' } },
          ],
        },
      },
    });
  });

  it('builds template components: header, ordered body parameters, URL buttons', () => {
    const body = buildMessageRequest(phone, {
      type: 'template',
      name: 'order_update',
      language: 'es_MX',
      header: { type: 'document', link: 'https://files.example/r.pdf', filename: 'receipt.pdf' },
      body_parameters: ['Ana', '#123'],
      button_parameters: [{ index: 0, sub_type: 'url', text: 'track/123' }],
    });
    expect(body['template']).toEqual({
      name: 'order_update',
      language: { code: 'es_MX' },
      components: [
        { type: 'header', parameters: [{ type: 'document', document: { link: 'https://files.example/r.pdf', filename: 'receipt.pdf' } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '#123' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'track/123' }] },
      ],
    });
  });

  it('sends a template without components when it has no parameters', () => {
    expect(buildMessageRequest(phone, { type: 'template', name: 'hello_world', language: 'en_US' })['template']).toEqual({
      name: 'hello_world',
      language: { code: 'en_US' },
    });
  });

  it.each<[string, MessageContent]>([
    ['an empty text', { type: 'text', body: '  ' }],
    ['a text over 4096 characters', { type: 'text', body: 'x'.repeat(4097) }],
    ['a relative media link', { type: 'image', link: '/files/a.jpg' }],
    ['a non-http media link', { type: 'video', link: 'ftp://files.example/a.mp4' }],
    ['a caption over 1024 characters', { type: 'image', link: 'https://f.example/a', caption: 'c'.repeat(1025) }],
    ['no reply buttons', { type: 'interactive', body: 'b', buttons: [] }],
    [
      'four reply buttons',
      { type: 'interactive', body: 'b', buttons: ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id })) },
    ],
    ['duplicate button ids', { type: 'interactive', body: 'b', buttons: [{ id: 'a', title: 'A' }, { id: 'a', title: 'B' }] }],
    ['a button title over 20 characters', { type: 'interactive', body: 'b', buttons: [{ id: 'a', title: 't'.repeat(21) }] }],
    ['an empty template body parameter', { type: 'template', name: 't', language: 'en', body_parameters: ['ok', ''] }],
    ['a template without language', { type: 'template', name: 't', language: '' }],
    ['a negative button index', { type: 'template', name: 't', language: 'en', button_parameters: [{ index: -1, sub_type: 'url', text: 'x' }] }],
  ])('refuses %s with PREPARE_FAILED', (_case, content) => {
    const error = prepareFailure(content);
    expect(error).toBeInstanceOf(CatalogError);
    expect(error.code).toBe('PREPARE_FAILED');
    expect(error.httpStatus).toBe(500);
  });
});
