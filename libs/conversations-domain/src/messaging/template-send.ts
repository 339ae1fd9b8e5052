import { CatalogError } from '@cmsg/errors';
import { containsPaymentMarker } from './payment-markers';
import type { TemplateButtonParameterInput, TemplateHeaderInput, TemplateSendInput, TemplateVariableInput } from './send-message.command';

/** SPEC 8: the template body after interpolation. */
export const MAX_TEMPLATE_BODY_LENGTH = 1024;

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The stored template fields a send depends on. */
export interface TemplateDefinition {
  name: string;
  language: string;
  status: string;
  category: string;
  body: string;
  variable_count: number;
  /** text | image | video | document | location, or null without a header. */
  header_type?: string | null;
  buttons: { type: string; url?: string | null }[];
  is_fake: boolean;
}

export interface TemplateSendContext {
  isTester: boolean;
  contactHasPhone: boolean;
  /** The contact's consent statuses (CONTRACT 10.2); absent: unknown. */
  consent?: { marketing?: string | null; utility?: string | null };
}

export type PreparedTemplateHeader =
  | { type: 'text'; text: string }
  | { type: 'image' | 'video' | 'document'; file_uuid: string; transcription: string | undefined };

/** A template send that passed every rule: what the provider gets and what the timeline stores. */
export interface PreparedTemplate {
  name: string;
  language: string;
  /** Values of {{1}}..{{n}} in order. */
  bodyParameters: string[];
  /** The body the customer reads. */
  renderedBody: string;
  header: PreparedTemplateHeader | undefined;
  buttonParameters: { index: number; sub_type: 'url'; text: string }[];
}

/**
 * The template rules of SPEC 7, in this order: approval, test-only templates, authentication
 * templates, variables, header, button parameters, payment markers, body length. Markers inside
 * body variables stay as written in 0.2.0 (CONTRACT 7b); elsewhere in a template they are refused.
 */
export function prepareTemplateSend(template: TemplateDefinition, input: TemplateSendInput, context: TemplateSendContext): PreparedTemplate {
  if (template.status !== 'approved') {
    throw new CatalogError('TEMPLATE_NOT_APPROVED', `Template ${template.name} (${template.language}) is ${template.status}, not approved.`);
  }
  if (template.is_fake && !context.isTester) throw new CatalogError('TEMPLATE_FAKE_REQUIRES_TESTER_CONVERSATION');
  // CONTRACT 10.2: a category the contact opted out of is refused before any provider call;
  // authentication templates never are (a one-time code the customer asked for).
  if ((template.category === 'marketing' || template.category === 'utility') && context.consent?.[template.category] === 'opted_out') {
    throw new CatalogError('CONTACT_OPTED_OUT', `The contact opted out of ${template.category} messages; template ${template.name} is not sent.`);
  }
  if (template.category === 'authentication' && !context.contactHasPhone) throw new CatalogError('AUTH_TEMPLATE_REQUIRES_PHONE');

  const bodyParameters = orderedVariableValues(template, input.variables);
  const header = checkedHeader(template, input.header);
  const buttonParameters = checkedButtonParameters(template, input.button_parameters);
  if (header?.type === 'text' && containsPaymentMarker(header.text)) {
    throw new CatalogError('PAYMENT_MARKER_UNSUPPORTED_FIELD', 'Payment markers are not replaced in a template header.');
  }
  for (const parameter of buttonParameters) {
    if (containsPaymentMarker(parameter.text)) {
      throw new CatalogError('PAYMENT_MARKER_UNSUPPORTED_FIELD', `Payment markers are not replaced in template button parameters (button ${parameter.index}).`);
    }
  }
  const renderedBody = renderTemplateBody(template.body, bodyParameters);
  if (renderedBody.length > MAX_TEMPLATE_BODY_LENGTH) {
    throw new CatalogError(
      'TEMPLATE_BODY_TOO_LONG',
      `The template body is ${renderedBody.length} characters after interpolation; the limit is ${MAX_TEMPLATE_BODY_LENGTH}.`,
    );
  }
  return { name: template.name, language: template.language, bodyParameters, renderedBody, header, buttonParameters };
}

/** Replaces each {{n}} with the n-th value in one pass (a value holding `{{2}}` stays literal). */
export function renderTemplateBody(body: string, values: readonly string[]): string {
  return body.replace(PLACEHOLDER, (placeholder, index: string) => values[Number(index) - 1] ?? placeholder);
}

/** Exactly the indexes 1..variable_count, each once, none empty. */
function orderedVariableValues(template: TemplateDefinition, variables: readonly TemplateVariableInput[]): string[] {
  const expected = template.variable_count;
  const invalid = (why: string) => new CatalogError('TEMPLATE_VARIABLES_INVALID', `Template ${template.name}: ${why}.`);
  if (variables.length !== expected) throw invalid(`expects ${expected} variable${expected === 1 ? '' : 's'}, got ${variables.length}`);
  const values: string[] = [];
  for (const variable of variables) {
    if (variable.index < 1 || variable.index > expected) throw invalid(`variable index ${variable.index} is outside 1..${expected}`);
    if (values[variable.index - 1] !== undefined) throw invalid(`variable index ${variable.index} is given twice`);
    if (variable.value.trim() === '') throw invalid(`variable {{${variable.index}}} is empty`);
    values[variable.index - 1] = variable.value;
  }
  // With the count equal and no repeats, every index is present; kept as a guard for the reader.
  for (let index = 0; index < expected; index += 1) if (values[index] === undefined) throw invalid(`variable {{${index + 1}}} is missing`);
  return values;
}

/**
 * Header rules (docs/messaging.md): a template without a header takes none; a media header needs a
 * header of the same type; a text header is optional (a static header text needs no parameter; a
 * given value fills its {{1}}) but must be of type text when given. A location header cannot be
 * expressed by this API.
 */
function checkedHeader(template: TemplateDefinition, header: TemplateHeaderInput | undefined): PreparedTemplateHeader | undefined {
  const declared = template.header_type;
  const mismatch = (why: string) => new CatalogError('TEMPLATE_HEADER_MISMATCH', `Template ${template.name}: ${why}.`);
  if (!declared) {
    if (header) throw mismatch(`it has no header, a ${header.type} header was given`);
    return undefined;
  }
  if (declared === 'location') throw mismatch('its location header cannot be filled through this API');
  if (!header) {
    if (declared === 'text') return undefined;
    throw mismatch(`its ${declared} header needs a header of type ${declared}`);
  }
  if (header.type !== declared) throw mismatch(`it declares a ${declared} header, a ${header.type} header was given`);
  return header.type === 'text'
    ? { type: 'text', text: header.value }
    : { type: header.type, file_uuid: header.file_uuid, transcription: header.transcription };
}

const HAS_PLACEHOLDER = /\{\{\s*\d+\s*\}\}/;

/** Each parameter fills a URL button of the template, once; every dynamic URL button gets one. */
function checkedButtonParameters(template: TemplateDefinition, parameters: readonly TemplateButtonParameterInput[]): PreparedTemplate['buttonParameters'] {
  const invalid = (why: string) => new CatalogError('TEMPLATE_VARIABLES_INVALID', `Template ${template.name}: ${why}.`);
  const seen = new Set<number>();
  for (const parameter of parameters) {
    if (template.buttons[parameter.index]?.type !== 'url') throw invalid(`button ${parameter.index} is not a URL button`);
    if (seen.has(parameter.index)) throw invalid(`button ${parameter.index} has two parameters`);
    if (parameter.value.trim() === '') throw invalid(`the parameter of button ${parameter.index} is empty`);
    seen.add(parameter.index);
  }
  template.buttons.forEach((button, index) => {
    if (button.type === 'url' && HAS_PLACEHOLDER.test(button.url ?? '') && !seen.has(index)) throw invalid(`URL button ${index} needs a parameter`);
  });
  return [...parameters].sort((a, b) => a.index - b.index).map((parameter) => ({ index: parameter.index, sub_type: 'url', text: parameter.value }));
}
