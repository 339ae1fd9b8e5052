import { type MessageContentInput, type SendMessageCommand, sendMessageCommand } from './send-message.command';

const base: Omit<SendMessageCommand, 'content'> = {
  conversation: { uuid: '3f2b8c1e-6a4d-4e0b-9c7a-1d2e3f4a5b6c' },
  operationId: 'op-1',
  author: { type: 'api_token', uuid: 'a1b2c3d4-0000-4000-8000-000000000000' },
};
const template = { template: { uuid: 't' }, variables: [], button_parameters: [] };

const problemOf = (content: MessageContentInput, fields: Partial<SendMessageCommand> = {}): string | undefined => {
  try {
    sendMessageCommand({ ...base, ...fields, content });
    return undefined;
  } catch (error) {
    expect((error as { code?: string }).code).toBe('INVALID_REQUEST');
    return (error as Error).message;
  }
};

describe('sendMessageCommand', () => {
  it('accepts each kind of content', () => {
    const contents: MessageContentInput[] = [
      { kind: 'text', text: 'hola' },
      { kind: 'file', file_uuid: 'f', caption: 'see', transcription: '' },
      { kind: 'quick_reply', quick_reply: { name: 'Saludo' } },
      { kind: 'template', template: { ...template, template: { name: 'order', language: 'es' }, header: { type: 'text', value: 'x' } } },
      { kind: 'quick_reply_or_template', quick_reply: { uuid: 'q' }, template },
    ];
    for (const content of contents) expect(problemOf(content)).toBeUndefined();
  });

  it('trims the operation id and requires one of at most 255 characters', () => {
    expect(sendMessageCommand({ ...base, operationId: '  op  ', content: { kind: 'text', text: 'x' } }).operationId).toBe('op');
    expect(problemOf({ kind: 'text', text: 'x' }, { operationId: ' ' })).toContain('operation_id');
    expect(problemOf({ kind: 'text', text: 'x' }, { operationId: 'o'.repeat(256) })).toContain('operation_id');
  });

  it('knows the author types', () => {
    expect(problemOf({ kind: 'text', text: 'x' }, { author: { type: 'robot' as never, uuid: null } })).toContain('author.type');
  });

  it.each([0, 4097])('refuses a text of %i characters', (length) => {
    expect(problemOf({ kind: 'text', text: 't'.repeat(length) })).toContain('text');
  });

  it('accepts a text of 4096 characters', () => {
    expect(problemOf({ kind: 'text', text: 't'.repeat(4096) })).toBeUndefined();
  });

  it('checks files: uuid required, transcription up to 4096', () => {
    expect(problemOf({ kind: 'file', file_uuid: '' })).toContain('file.file_uuid');
    expect(problemOf({ kind: 'file', file_uuid: 'f', transcription: 't'.repeat(4097) })).toContain('transcription');
  });

  it('needs a uuid or a name for a quick reply, and a uuid or name plus language for a template', () => {
    expect(problemOf({ kind: 'quick_reply', quick_reply: {} })).toContain('quick_reply');
    expect(problemOf({ kind: 'template', template: { ...template, template: { name: 'order' } } })).toContain('template.template');
  });

  it('checks the shape of template parameters, leaving empty values to the template rules', () => {
    expect(problemOf({ kind: 'template', template: { ...template, variables: [{ index: 0, value: 'x' }] } })).toContain('index is an integer >= 1');
    expect(problemOf({ kind: 'template', template: { ...template, variables: [{ index: 1, value: '' }] } })).toBeUndefined();
    expect(problemOf({ kind: 'template', template: { ...template, header: { type: 'text', value: '' } } })).toContain('header.value');
    expect(problemOf({ kind: 'template', template: { ...template, header: { type: 'image', file_uuid: '' } } })).toContain('header.file_uuid');
    expect(problemOf({ kind: 'template', template: { ...template, header: { type: 'location', file_uuid: 'f' } as never } })).toContain('header.type');
    expect(problemOf({ kind: 'template', template: { ...template, button_parameters: [{ index: -1, sub_type: 'url', value: 'x' }] } })).toContain('>= 0');
    expect(problemOf({ kind: 'template', template: { ...template, button_parameters: [{ index: 0, sub_type: 'phone' as never, value: 'x' }] } })).toContain(
      'sub_type',
    );
  });

  it('lists every problem at once', () => {
    const message = problemOf({ kind: 'quick_reply_or_template', quick_reply: {}, template: { ...template, template: {} } }, { operationId: '' });
    expect(message).toContain('operation_id');
    expect(message).toContain('quick_reply');
    expect(message).toContain('template.template');
  });
});
