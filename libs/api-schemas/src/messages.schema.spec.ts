import { SendQuickReplyRequestSchema, SendTemplateRequestSchema, SendTextMessageRequestSchema } from './messages.schema';

const conversation = { uuid: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' };
const fileUuid = '0d6f5c1a-5b7e-4c1f-9a57-2f1d8e7c6b5a';
const pathsOf = (result: { error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('SendTextMessageRequestSchema', () => {
  it.each([1, 4096])('accepts a text of %i characters', (length) => {
    expect(SendTextMessageRequestSchema.safeParse({ conversation, text: 't'.repeat(length) }).success).toBe(true);
  });

  it.each([0, 4097])('refuses a text of %i characters', (length) => {
    expect(pathsOf(SendTextMessageRequestSchema.safeParse({ conversation, text: 't'.repeat(length) }))).toEqual(['text']);
  });

  it('takes a file with the text as caption, and a transcription only with a file', () => {
    expect(SendTextMessageRequestSchema.safeParse({ conversation, text: 'see', file_uuid: fileUuid, transcription: 'a cat' }).success).toBe(true);
    expect(pathsOf(SendTextMessageRequestSchema.safeParse({ conversation, text: 'see', transcription: 'a cat' }))).toEqual(['transcription']);
    expect(pathsOf(SendTextMessageRequestSchema.safeParse({ conversation, text: 'see', file_uuid: fileUuid, transcription: 't'.repeat(4097) }))).toEqual([
      'transcription',
    ]);
  });
});

describe('SendQuickReplyRequestSchema', () => {
  it('takes a quick reply by uuid or by name', () => {
    expect(SendQuickReplyRequestSchema.safeParse({ conversation, quick_reply: { uuid: fileUuid } }).success).toBe(true);
    expect(SendQuickReplyRequestSchema.safeParse({ conversation, quick_reply: { name: 'Saludo' } }).success).toBe(true);
    expect(pathsOf(SendQuickReplyRequestSchema.safeParse({ conversation, quick_reply: {} }))).toEqual(['quick_reply']);
  });
});

describe('SendTemplateRequestSchema', () => {
  it('defaults variables and button parameters to none', () => {
    expect(SendTemplateRequestSchema.parse({ conversation, template: { uuid: fileUuid } })).toEqual({
      conversation,
      template: { uuid: fileUuid },
      variables: [],
      button_parameters: [],
    });
  });

  it('needs uuid, or name and language', () => {
    expect(SendTemplateRequestSchema.safeParse({ conversation, template: { name: 'order_update', language: 'es_MX' } }).success).toBe(true);
    expect(pathsOf(SendTemplateRequestSchema.safeParse({ conversation, template: { name: 'order_update' } }))).toEqual(['template']);
  });

  it('validates variables, header and button parameters (CONTRACT 4)', () => {
    const result = SendTemplateRequestSchema.safeParse({
      conversation,
      template: { uuid: fileUuid },
      variables: [{ index: 0, value: '' }],
      header: { type: 'image' },
      button_parameters: [{ index: -1, sub_type: 'phone', value: '' }],
    });
    expect(pathsOf(result).sort()).toEqual(
      ['button_parameters.0.index', 'button_parameters.0.sub_type', 'button_parameters.0.value', 'header.file_uuid', 'variables.0.index', 'variables.0.value'].sort(),
    );
  });

  it('takes a text header with a value and a media header with a file', () => {
    expect(SendTemplateRequestSchema.safeParse({ conversation, template: { uuid: fileUuid }, header: { type: 'text', value: 'Hi' } }).success).toBe(true);
    expect(SendTemplateRequestSchema.safeParse({ conversation, template: { uuid: fileUuid }, header: { type: 'document', file_uuid: fileUuid, transcription: 'x' } }).success).toBe(
      true,
    );
    expect(SendTemplateRequestSchema.safeParse({ conversation, template: { uuid: fileUuid }, header: { type: 'text' } }).success).toBe(false);
  });
});
