import { ActionSchema, SendTemplateRequestSchema, SendTextMessageRequestSchema, type TemplateHeader } from '@cmsg/api-schemas';
import { isCatalogError } from '@cmsg/errors';
import { SendMessageRequest } from '@cmsg/proto';
import { type ProtoSendContent, type PublicSendAction, protoSendContentToDomain, publicSendActionToProto, publicTextToProto } from './send-content.codec';
import { publicTemplateToProto } from './template.codec';
import { overTheWire } from './testing/over-the-wire';

const CONVERSATION = { uuid: '11111111-1111-4111-8111-111111111111' };
const TEMPLATE = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';
const QUICK_REPLY = '44444444-4444-4444-8444-444444444444';

/** The content as the conversations service decodes it from the request the sender built. */
function received(content: ProtoSendContent) {
  const request = overTheWire(SendMessageRequest, { caller: undefined, conversation: undefined, operation_id: 'op-1', author: undefined, ...content });
  return protoSendContentToDomain(request);
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return isCatalogError(error) ? error.code : 'not a catalog error';
  }
}

const sendAction = (action: unknown) => ActionSchema.parse(action) as PublicSendAction;

describe('send content codec', () => {
  it('a text, and a file with its caption and transcription, reach the domain as sent', () => {
    const text = SendTextMessageRequestSchema.parse({ conversation: CONVERSATION, text: 'Hola' });
    expect(received(publicTextToProto(text))).toStrictEqual({ kind: 'text', text: 'Hola' });
    const file = SendTextMessageRequestSchema.parse({ conversation: CONVERSATION, text: 'Your invoice', file_uuid: FILE, transcription: 'Invoice #1' });
    expect(received(publicTextToProto(file))).toStrictEqual({ kind: 'file', file_uuid: FILE, caption: 'Your invoice', transcription: 'Invoice #1' });
    expect(received(publicTextToProto({ file_uuid: FILE }))).toStrictEqual({ kind: 'file', file_uuid: FILE });
  });

  it.each<[string, TemplateHeader | undefined]>([
    ['no header', undefined],
    ['a text header', { type: 'text', value: 'Pedido A-17' }],
    ['an image header', { type: 'image', file_uuid: FILE }],
    ['a video header with a transcription', { type: 'video', file_uuid: FILE, transcription: 'A box' }],
    ['a document header with a transcription', { type: 'document', file_uuid: FILE, transcription: 'The invoice' }],
  ])('a template send with %s reaches the domain as sent', (_, header) => {
    const body = SendTemplateRequestSchema.parse({
      conversation: CONVERSATION,
      template: { name: 'order_update', language: 'es_MX' },
      variables: [{ index: 1, value: 'Ana' }],
      ...(header ? { header } : {}),
      button_parameters: [{ index: 0, sub_type: 'url', value: 'A-17' }],
    });
    expect(received({ template: publicTemplateToProto(body.template, body) })).toStrictEqual({
      kind: 'template',
      template: {
        template: { name: 'order_update', language: 'es_MX' },
        variables: [{ index: 1, value: 'Ana' }],
        ...(header ? { header } : {}),
        button_parameters: [{ index: 0, sub_type: 'url', value: 'A-17' }],
      },
    });
  });

  it('each send_message action reaches the domain as the matching individual send', () => {
    expect(received(publicSendActionToProto(sendAction({ type: 'send_message', text: 'Hola' })))).toStrictEqual({ kind: 'text', text: 'Hola' });
    expect(received(publicSendActionToProto(sendAction({ type: 'send_message', file_uuid: FILE, text: 'Caption', transcription: 'What it says' })))).toStrictEqual({
      kind: 'file',
      file_uuid: FILE,
      caption: 'Caption',
      transcription: 'What it says',
    });
    expect(received(publicSendActionToProto(sendAction({ type: 'send_message', quick_reply: { name: 'Welcome' } })))).toStrictEqual({
      kind: 'quick_reply',
      quick_reply: { name: 'Welcome' },
    });
    expect(received(publicSendActionToProto(sendAction({ type: 'send_message', template: { uuid: TEMPLATE, header: { type: 'image', file_uuid: FILE, transcription: 'A cat' } } })))).toStrictEqual({
      kind: 'template',
      template: { template: { uuid: TEMPLATE }, variables: [], header: { type: 'image', file_uuid: FILE, transcription: 'A cat' }, button_parameters: [] },
    });
  });

  it('send_quick_reply_or_template reaches the domain with both halves', () => {
    const action = sendAction({ type: 'send_quick_reply_or_template', quick_reply: { uuid: QUICK_REPLY }, template: { name: 'fallback', language: 'es', variables: [{ index: 1, value: 'Ana' }] } });
    expect(received(publicSendActionToProto(action))).toStrictEqual({
      kind: 'quick_reply_or_template',
      quick_reply: { uuid: QUICK_REPLY },
      template: { template: { name: 'fallback', language: 'es' }, variables: [{ index: 1, value: 'Ana' }], button_parameters: [] },
    });
  });

  it('refuses content with no member, two members, or half of the combined one (INVALID_REQUEST)', () => {
    expect(codeOf(() => protoSendContentToDomain({}))).toBe('INVALID_REQUEST');
    expect(codeOf(() => protoSendContentToDomain({ text: { body: 'a' }, quick_reply: { uuid: QUICK_REPLY } }))).toBe('INVALID_REQUEST');
    expect(codeOf(() => protoSendContentToDomain({ quick_reply_or_template: { quick_reply: { uuid: QUICK_REPLY }, template: undefined } }))).toBe('INVALID_REQUEST');
    expect(codeOf(() => protoSendContentToDomain({ template: { template: undefined, variables: [], header: undefined, button_parameters: [] } }))).toBe('INVALID_REQUEST');
  });

  it('drops empty reference members the wire cannot tell from absent ones', () => {
    expect(protoSendContentToDomain({ quick_reply: { uuid: '', name: 'Welcome' } })).toStrictEqual({ kind: 'quick_reply', quick_reply: { name: 'Welcome' } });
    expect(protoSendContentToDomain({ template: { template: { uuid: TEMPLATE, name: '', language: '' }, variables: [], header: undefined, button_parameters: [] } })).toStrictEqual({
      kind: 'template',
      template: { template: { uuid: TEMPLATE }, variables: [], button_parameters: [] },
    });
  });
});
