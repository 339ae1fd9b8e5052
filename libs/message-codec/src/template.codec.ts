import type {
  TemplateButtonParameter as PublicTemplateButtonParameter,
  TemplateHeader as PublicTemplateHeader,
  TemplateReference as PublicTemplateReference,
  TemplateVariable as PublicTemplateVariable,
} from '@cmsg/api-schemas';
import type { TemplateButtonParameter, TemplateContent, TemplateVariable } from '@cmsg/proto';
import type { TemplateSendInput } from './domain-send-content';
import { type Json, storedList } from './json-fields';
import { requiredField } from './required-field';
import { protoTemplateHeaderToDomain, publicTemplateHeaderToProto, storedTemplateHeaderToProto } from './template-header.codec';

/** A template's parameters as the public API takes them: beside `template` in a send request, inside an action's `template`. */
export interface PublicTemplateParameters {
  variables: PublicTemplateVariable[];
  header?: PublicTemplateHeader;
  button_parameters: PublicTemplateButtonParameter[];
}

/** A validated public template send as the RPC's template content. */
export function publicTemplateToProto(reference: PublicTemplateReference, parameters: PublicTemplateParameters): TemplateContent {
  return {
    template: { uuid: reference.uuid, name: reference.name, language: reference.language },
    variables: parameters.variables,
    header: publicTemplateHeaderToProto(parameters.header),
    button_parameters: parameters.button_parameters,
  };
}

/**
 * The RPC's template content as the domain's input: empty reference members are absent, and any
 * sub_type passes as is (sendMessageCommand refuses all but url with INVALID_REQUEST).
 */
export function protoTemplateToDomain(content: TemplateContent): TemplateSendInput {
  const reference = requiredField(content.template, 'template.template');
  const header = content.header;
  return {
    template: {
      ...(reference.uuid ? { uuid: reference.uuid } : {}),
      ...(reference.name ? { name: reference.name } : {}),
      ...(reference.language ? { language: reference.language } : {}),
    },
    variables: content.variables.map(({ index, value }) => ({ index, value })),
    ...(header ? { header: protoTemplateHeaderToDomain(header) } : {}),
    button_parameters: content.button_parameters.map(({ index, sub_type, value }) => ({ index, sub_type: sub_type as 'url', value })),
  };
}

/** A template stored on a schedule (its template_* fields, or a template payload) as the RPC's template content. */
export function storedTemplateToProto(templateUuid: string, variables: unknown, header: Json | null | undefined, buttonParameters: unknown): TemplateContent {
  return {
    template: { uuid: templateUuid, name: undefined, language: undefined },
    variables: storedTemplateVariablesToProto(variables),
    header: header ? storedTemplateHeaderToProto(header) : undefined,
    button_parameters: storedButtonParametersToProto(buttonParameters),
  };
}

export function storedTemplateVariablesToProto(stored: unknown): TemplateVariable[] {
  return storedList(stored).map((variable) => ({ index: Number(variable['index']), value: String(variable['value']) }));
}

export function storedButtonParametersToProto(stored: unknown): TemplateButtonParameter[] {
  return storedList(stored).map((parameter) => ({ index: Number(parameter['index']), sub_type: String(parameter['sub_type']), value: String(parameter['value']) }));
}
