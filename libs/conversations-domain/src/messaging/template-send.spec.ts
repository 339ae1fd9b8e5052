import type { TemplateSendInput } from './send-message.command';
import { MAX_TEMPLATE_BODY_LENGTH, type TemplateDefinition, prepareTemplateSend, renderTemplateBody } from './template-send';

const template: TemplateDefinition = {
  name: 'order_update',
  language: 'es_MX',
  status: 'approved',
  category: 'utility',
  body: 'Hola {{1}}, tu pedido {{2}} llega el {{ 3 }}.',
  variable_count: 3,
  header_type: null,
  buttons: [],
  is_fake: false,
};
const realContact = { isTester: false, contactHasPhone: true };

function input(fields: Partial<TemplateSendInput> = {}): TemplateSendInput {
  return {
    template: { uuid: 'x' },
    variables: [
      { index: 1, value: 'Ana' },
      { index: 2, value: 'A-17' },
      { index: 3, value: 'lunes' },
    ],
    button_parameters: [],
    ...fields,
  };
}

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('renderTemplateBody', () => {
  it('replaces each placeholder with its value, spaces inside the braces allowed', () => {
    expect(renderTemplateBody(template.body, ['Ana', 'A-17', 'lunes'])).toBe('Hola Ana, tu pedido A-17 llega el lunes.');
  });

  it('replaces repeated placeholders and never re-interpolates a value', () => {
    expect(renderTemplateBody('{{1}} {{2}} {{1}}', ['{{2}}', 'b'])).toBe('{{2}} b {{2}}');
  });

  it('leaves a placeholder without a value as written', () => {
    expect(renderTemplateBody('a {{1}} {{4}}', ['x'])).toBe('a x {{4}}');
  });

  it('keeps $ patterns of values literally', () => {
    expect(renderTemplateBody('{{1}}', ["$& $1 $$ $'"])).toBe("$& $1 $$ $'");
  });
});

describe('prepareTemplateSend', () => {
  it('gives the ordered body parameters and the rendered body', () => {
    const prepared = prepareTemplateSend(template, input({ variables: [...input().variables].reverse() }), realContact);
    expect(prepared).toEqual({
      name: 'order_update',
      language: 'es_MX',
      bodyParameters: ['Ana', 'A-17', 'lunes'],
      renderedBody: 'Hola Ana, tu pedido A-17 llega el lunes.',
      header: undefined,
      buttonParameters: [],
    });
  });

  it.each(['pending', 'rejected', 'paused', 'disabled'])('refuses a %s template: TEMPLATE_NOT_APPROVED', (status) => {
    expect(codeOf(() => prepareTemplateSend({ ...template, status }, input(), realContact))).toBe('TEMPLATE_NOT_APPROVED');
  });

  it('sends a test-only template to tester conversations only', () => {
    const fake = { ...template, is_fake: true };
    expect(codeOf(() => prepareTemplateSend(fake, input(), realContact))).toBe('TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION');
    expect(codeOf(() => prepareTemplateSend(fake, input(), { isTester: true, contactHasPhone: true }))).toBeUndefined();
  });

  it('needs a phone for an authentication template', () => {
    const auth = { ...template, category: 'authentication' };
    expect(codeOf(() => prepareTemplateSend(auth, input(), { isTester: false, contactHasPhone: false }))).toBe('AUTH_TEMPLATE_REQUIRES_PHONE');
    expect(codeOf(() => prepareTemplateSend(template, input(), { isTester: false, contactHasPhone: false }))).toBeUndefined();
  });

  describe('consent (CONTRACT 10.2): CONTACT_OPTED_OUT before any provider call', () => {
    const optedOut = (category: 'marketing' | 'utility') => ({ ...realContact, consent: { [category]: 'opted_out' } });
    it.each(['marketing', 'utility'] as const)('refuses a %s template to a contact who opted out of it', (category) => {
      expect(codeOf(() => prepareTemplateSend({ ...template, category }, input(), optedOut(category)))).toBe('CONTACT_OPTED_OUT');
    });

    it('sends the other category, and any category while consent is opted_in or unknown', () => {
      expect(codeOf(() => prepareTemplateSend({ ...template, category: 'utility' }, input(), optedOut('marketing')))).toBeUndefined();
      expect(codeOf(() => prepareTemplateSend({ ...template, category: 'marketing' }, input(), optedOut('utility')))).toBeUndefined();
      for (const status of ['opted_in', 'unknown', null, undefined]) {
        expect(codeOf(() => prepareTemplateSend({ ...template, category: 'marketing' }, input(), { ...realContact, consent: { marketing: status } }))).toBeUndefined();
      }
    });

    it('never blocks an authentication template', () => {
      const consent = { marketing: 'opted_out', utility: 'opted_out' };
      expect(codeOf(() => prepareTemplateSend({ ...template, category: 'authentication' }, input(), { ...realContact, consent }))).toBeUndefined();
    });
  });

  describe('variables: TEMPLATE_VARIABLES_INVALID', () => {
    it.each<[string, TemplateSendInput['variables']]>([
      ['too few', [{ index: 1, value: 'a' }, { index: 2, value: 'b' }]],
      ['too many', [{ index: 1, value: 'a' }, { index: 2, value: 'b' }, { index: 3, value: 'c' }, { index: 4, value: 'd' }]],
      ['a repeated index (so one is missing)', [{ index: 1, value: 'a' }, { index: 1, value: 'b' }, { index: 3, value: 'c' }]],
      ['an index beyond the count', [{ index: 1, value: 'a' }, { index: 2, value: 'b' }, { index: 4, value: 'c' }]],
      ['an empty value', [{ index: 1, value: 'a' }, { index: 2, value: '' }, { index: 3, value: 'c' }]],
      ['a blank value', [{ index: 1, value: 'a' }, { index: 2, value: '  ' }, { index: 3, value: 'c' }]],
    ])('%s', (_case, variables) => {
      expect(codeOf(() => prepareTemplateSend(template, input({ variables }), realContact))).toBe('TEMPLATE_VARIABLES_INVALID');
    });

    it('accepts none for a template without variables', () => {
      const plain = { ...template, body: 'Gracias por tu compra.', variable_count: 0 };
      expect(prepareTemplateSend(plain, input({ variables: [] }), realContact).renderedBody).toBe('Gracias por tu compra.');
      expect(codeOf(() => prepareTemplateSend(plain, input(), realContact))).toBe('TEMPLATE_VARIABLES_INVALID');
    });
  });

  describe('header', () => {
    it('refuses a header for a template without one', () => {
      expect(codeOf(() => prepareTemplateSend(template, input({ header: { type: 'text', value: 'Hi' } }), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
    });

    it('takes an optional text header for a text-header template', () => {
      const withText = { ...template, header_type: 'text' };
      expect(prepareTemplateSend(withText, input(), realContact).header).toBeUndefined();
      expect(prepareTemplateSend(withText, input({ header: { type: 'text', value: 'Pedido A-17' } }), realContact).header).toEqual({
        type: 'text',
        text: 'Pedido A-17',
      });
      expect(codeOf(() => prepareTemplateSend(withText, input({ header: { type: 'image', file_uuid: 'f' } }), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
    });

    it.each(['image', 'video', 'document'] as const)('requires a %s header of the same type', (type) => {
      const withMedia = { ...template, header_type: type };
      expect(codeOf(() => prepareTemplateSend(withMedia, input(), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
      expect(codeOf(() => prepareTemplateSend(withMedia, input({ header: { type: 'text', value: 'x' } }), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
      const other = type === 'image' ? 'video' : 'image';
      expect(codeOf(() => prepareTemplateSend(withMedia, input({ header: { type: other, file_uuid: 'f' } }), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
      expect(prepareTemplateSend(withMedia, input({ header: { type, file_uuid: 'f', transcription: 'a cat' } }), realContact).header).toEqual({
        type,
        file_uuid: 'f',
        transcription: 'a cat',
      });
    });

    it('cannot fill a location header', () => {
      expect(codeOf(() => prepareTemplateSend({ ...template, header_type: 'location' }, input(), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
    });
  });

  describe('button parameters', () => {
    const withButtons: TemplateDefinition = {
      ...template,
      buttons: [
        { type: 'quick_reply' },
        { type: 'url', url: 'https://shop.example/orders/{{1}}' },
        { type: 'url', url: 'https://shop.example/help' },
      ],
    };

    it('fills the URL buttons by position, in order', () => {
      const prepared = prepareTemplateSend(withButtons, input({ button_parameters: [{ index: 1, sub_type: 'url', value: 'A-17' }] }), realContact);
      expect(prepared.buttonParameters).toEqual([{ index: 1, sub_type: 'url', text: 'A-17' }]);
    });

    it.each<[string, TemplateSendInput['button_parameters']]>([
      ['a dynamic URL button without its parameter', []],
      ['a parameter for a non-URL button', [{ index: 0, sub_type: 'url', value: 'x' }, { index: 1, sub_type: 'url', value: 'A-17' }]],
      ['a parameter beyond the buttons', [{ index: 1, sub_type: 'url', value: 'A-17' }, { index: 5, sub_type: 'url', value: 'x' }]],
      ['two parameters for one button', [{ index: 1, sub_type: 'url', value: 'A-17' }, { index: 1, sub_type: 'url', value: 'B' }]],
      ['an empty parameter', [{ index: 1, sub_type: 'url', value: ' ' }]],
    ])('refuses %s: TEMPLATE_VARIABLES_INVALID', (_case, button_parameters) => {
      expect(codeOf(() => prepareTemplateSend(withButtons, input({ button_parameters }), realContact))).toBe('TEMPLATE_VARIABLES_INVALID');
    });
  });

  describe('payment markers', () => {
    it('leaves markers in body variables as written (0.2.0)', () => {
      const variables = [
        { index: 1, value: '[[payment.link]]' },
        { index: 2, value: '[[payment.unknown]]' },
        { index: 3, value: 'x' },
      ];
      const prepared = prepareTemplateSend(template, input({ variables }), realContact);
      expect(prepared.bodyParameters).toEqual(['[[payment.link]]', '[[payment.unknown]]', 'x']);
    });

    it('refuses a marker in a text header value: PAYMENT_MARKER_UNSUPPORTED_FIELD', () => {
      const withText = { ...template, header_type: 'text' };
      expect(codeOf(() => prepareTemplateSend(withText, input({ header: { type: 'text', value: 'Pay [[payment.amount]]' } }), realContact))).toBe(
        'PAYMENT_MARKER_UNSUPPORTED_FIELD',
      );
    });

    it('refuses a marker in a button parameter: PAYMENT_MARKER_UNSUPPORTED_FIELD', () => {
      const withButton = { ...template, buttons: [{ type: 'url', url: 'https://pay.example/{{1}}' }] };
      const button_parameters = [{ index: 0, sub_type: 'url' as const, value: '[[payment.reference]]' }];
      expect(codeOf(() => prepareTemplateSend(withButton, input({ button_parameters }), realContact))).toBe('PAYMENT_MARKER_UNSUPPORTED_FIELD');
    });
  });

  it('limits the body after interpolation to 1024 characters', () => {
    const long = { ...template, body: 'x'.repeat(1000) + '{{1}}', variable_count: 1 };
    const fits = 'y'.repeat(MAX_TEMPLATE_BODY_LENGTH - 1000);
    expect(prepareTemplateSend(long, input({ variables: [{ index: 1, value: fits }] }), realContact).renderedBody).toHaveLength(MAX_TEMPLATE_BODY_LENGTH);
    expect(codeOf(() => prepareTemplateSend(long, input({ variables: [{ index: 1, value: `${fits}z` }] }), realContact))).toBe('TEMPLATE_BODY_TOO_LONG');
  });

  it('checks in a fixed order: approval before variables before header before length', () => {
    const broken = { ...template, status: 'paused', header_type: 'image' };
    expect(codeOf(() => prepareTemplateSend(broken, input({ variables: [] }), realContact))).toBe('TEMPLATE_NOT_APPROVED');
    expect(codeOf(() => prepareTemplateSend({ ...broken, status: 'approved' }, input({ variables: [] }), realContact))).toBe('TEMPLATE_VARIABLES_INVALID');
    expect(codeOf(() => prepareTemplateSend({ ...broken, status: 'approved' }, input(), realContact))).toBe('TEMPLATE_HEADER_MISMATCH');
  });
});
