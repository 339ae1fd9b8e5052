import { ScheduledPayloadSchema, type ScheduledPayload as PublicScheduledPayload } from '@cmsg/api-schemas';
import { ScheduledPayload, SendMessageRequest } from '@cmsg/proto';
import {
  protoScheduledPayloadToPublicRecord,
  protoScheduledPayloadToPublicRequest,
  protoScheduledPayloadToSendContent,
  publicScheduledPayloadToProto,
  storedScheduleTemplateToPayload,
  storedScheduledPayloadToProto,
} from './scheduled-payload.codec';
import { protoSendContentToDomain } from './send-content.codec';
import { overTheWire } from './testing/over-the-wire';

const TEMPLATE = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';
const QUICK_REPLY = '44444444-4444-4444-8444-444444444444';

/** One payload of each kind, and a template payload with each header type, with and without a transcription. */
const PAYLOADS: [string, unknown][] = [
  ['a quick reply', { kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY }],
  ['a template without header', { kind: 'template', template_uuid: TEMPLATE, variables: [{ index: 1, value: 'Ana' }] }],
  ['a template with a text header', { kind: 'template', template_uuid: TEMPLATE, variables: [], header: { type: 'text', value: 'Hi' } }],
  ...(['image', 'video', 'document'] as const).flatMap((type): [string, unknown][] => [
    [`a template with an ${type} header`, { kind: 'template', template_uuid: TEMPLATE, variables: [], header: { type, file_uuid: FILE } }],
    [
      `a template with an ${type} header and its transcription`,
      { kind: 'template', template_uuid: TEMPLATE, variables: [], header: { type, file_uuid: FILE, transcription: 'A box' }, button_parameters: [{ index: 0, sub_type: 'url', value: 'A-17' }] },
    ],
  ]),
  ['a text', { kind: 'message', text: 'Hola' }],
  ['a file', { kind: 'message', media: { file_uuid: FILE } }],
  ['a file with its caption and transcription', { kind: 'message', text: 'Your invoice', media: { file_uuid: FILE, transcription: 'Invoice #1' } }],
];

const parsed = (payload: unknown): PublicScheduledPayload => ScheduledPayloadSchema.parse(payload);
const wire = (payload: ScheduledPayload) => overTheWire(ScheduledPayload, payload);

describe('scheduled payload codec', () => {
  it.each(PAYLOADS)('%s: public -> RPC -> public request is the payload scheduled', (_, payload) => {
    const request = protoScheduledPayloadToPublicRequest(wire(publicScheduledPayloadToProto(parsed(payload))));
    // A repeated RPC field cannot be absent: omitted button parameters arrive as an empty list.
    const scheduled = payload as { kind: string; button_parameters?: unknown[] };
    const expected = scheduled.kind === 'template' ? { ...scheduled, button_parameters: scheduled.button_parameters ?? [] } : payload;
    expect(request).toStrictEqual(expected);
    expect(parsed(request)).toStrictEqual(parsed(expected));
  });

  it.each(PAYLOADS)('%s: stored (the public payload as validated) reads as the RPC payload the public one makes', (_, payload) => {
    expect(wire(storedScheduledPayloadToProto(parsed(payload)))).toStrictEqual(wire(publicScheduledPayloadToProto(parsed(payload))));
  });

  it('null members of a public payload travel as absent ones', () => {
    const payload = parsed({ kind: 'message', text: null, media: { file_uuid: FILE, transcription: null } });
    expect(protoScheduledPayloadToPublicRequest(wire(publicScheduledPayloadToProto(payload)))).toStrictEqual({ kind: 'message', media: { file_uuid: FILE } });
  });

  it('the public record shows absent members as null', () => {
    const record = (payload: unknown) => protoScheduledPayloadToPublicRecord(wire(storedScheduledPayloadToProto(parsed(payload))));
    expect(record({ kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY })).toStrictEqual({ kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY });
    expect(record({ kind: 'message', text: 'Hola' })).toStrictEqual({ kind: 'message', text: 'Hola', media: null });
    expect(record({ kind: 'message', media: { file_uuid: FILE } })).toStrictEqual({ kind: 'message', text: null, media: { file_uuid: FILE, transcription: null } });
    expect(record({ kind: 'template', template_uuid: TEMPLATE, variables: [], header: { type: 'image', file_uuid: FILE } })).toStrictEqual({
      kind: 'template',
      template_uuid: TEMPLATE,
      variables: [],
      header: { type: 'image', file_uuid: FILE },
      button_parameters: [],
    });
  });

  it('a stored empty transcription is absent', () => {
    const stored = { kind: 'message', text: 'Hola', media: { file_uuid: FILE, transcription: '' } };
    expect(storedScheduledPayloadToProto(stored).media).toStrictEqual({ file_uuid: FILE, transcription: undefined });
  });

  describe('as the send that delivers it', () => {
    const delivered = (payload: unknown) => {
      const content = protoScheduledPayloadToSendContent(storedScheduledPayloadToProto(parsed(payload)));
      const request = overTheWire(SendMessageRequest, { caller: undefined, conversation: undefined, operation_id: 'op-1', author: undefined, ...content });
      return protoSendContentToDomain(request);
    };

    it('a quick reply by uuid, a text, a file with its caption', () => {
      expect(delivered({ kind: 'quick_reply', quick_reply_uuid: QUICK_REPLY })).toStrictEqual({ kind: 'quick_reply', quick_reply: { uuid: QUICK_REPLY } });
      expect(delivered({ kind: 'message', text: 'Hola' })).toStrictEqual({ kind: 'text', text: 'Hola' });
      expect(delivered({ kind: 'message', text: 'Your invoice', media: { file_uuid: FILE, transcription: 'Invoice #1' } })).toStrictEqual({
        kind: 'file',
        file_uuid: FILE,
        caption: 'Your invoice',
        transcription: 'Invoice #1',
      });
      expect(delivered({ kind: 'message', media: { file_uuid: FILE } })).toStrictEqual({ kind: 'file', file_uuid: FILE });
    });

    it.each(PAYLOADS.filter(([, payload]) => (payload as { kind: string }).kind === 'template'))('%s: the template with its parameters', (_, payload) => {
      const template = payload as { template_uuid: string; variables: unknown[]; header?: unknown; button_parameters?: unknown[] };
      expect(delivered(payload)).toStrictEqual({
        kind: 'template',
        template: {
          template: { uuid: template.template_uuid },
          variables: template.variables,
          ...(template.header ? { header: template.header } : {}),
          button_parameters: template.button_parameters ?? [],
        },
      });
    });

    it('nothing for a kind this version does not know', () => {
      expect(protoScheduledPayloadToSendContent(storedScheduledPayloadToProto({ kind: 'carousel' }))).toBeUndefined();
    });
  });

  describe('a reassigned schedule\'s template payload', () => {
    it('is a template payload the public schema takes, without an empty header or button parameters', () => {
      const payload = storedScheduleTemplateToPayload(TEMPLATE, { template_variables: [{ index: 1, value: 'Ana' }], template_header: null, template_button_parameters: [] });
      expect(payload).toStrictEqual({ kind: 'template', template_uuid: TEMPLATE, variables: [{ index: 1, value: 'Ana' }] });
      expect(parsed(payload)).toStrictEqual(payload);
    });

    it('keeps the schedule\'s header and button parameters', () => {
      const header = { type: 'document', file_uuid: FILE, transcription: 'The invoice' };
      const buttons = [{ index: 0, sub_type: 'url', value: 'A-17' }];
      const payload = storedScheduleTemplateToPayload(TEMPLATE, { template_variables: [], template_header: header, template_button_parameters: buttons });
      expect(payload).toStrictEqual({ kind: 'template', template_uuid: TEMPLATE, variables: [], header, button_parameters: buttons });
      expect(parsed(payload)).toStrictEqual(payload);
    });
  });
});
