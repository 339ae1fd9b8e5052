/*
 * What a send carries as the domain sees it (conversations-domain's sendMessageCommand and
 * sendMessage). Defined here, beside the codec that builds it, so the transports and the domain
 * share one definition; conversations-domain re-exports these names.
 */

/** A business object by uuid, or by name (a name matching several is the *_AMBIGUOUS code). */
export interface ObjectReference {
  uuid?: string;
  name?: string;
}

/** `{uuid}` or `{name, language}`. */
export interface TemplateReference {
  uuid?: string;
  name?: string;
  language?: string;
}

export interface TemplateVariableInput {
  index: number;
  value: string;
}

export const TEMPLATE_HEADER_TYPES = ['text', 'image', 'video', 'document'] as const;
export type TemplateHeaderType = (typeof TEMPLATE_HEADER_TYPES)[number];

export type TemplateHeaderInput =
  | { type: 'text'; value: string; transcription?: string }
  | { type: 'image' | 'video' | 'document'; file_uuid: string; transcription?: string };

export interface TemplateButtonParameterInput {
  index: number;
  sub_type: 'url';
  value: string;
}

export interface TemplateSendInput {
  template: TemplateReference;
  variables: TemplateVariableInput[];
  header?: TemplateHeaderInput;
  button_parameters: TemplateButtonParameterInput[];
}

export type MessageContentInput =
  | { kind: 'text'; text: string }
  | { kind: 'file'; file_uuid: string; caption?: string; transcription?: string }
  | { kind: 'quick_reply'; quick_reply: ObjectReference }
  | { kind: 'template'; template: TemplateSendInput }
  /** Deprecated send_quick_reply_or_template: the quick reply while the window is open, else the template. */
  | { kind: 'quick_reply_or_template'; quick_reply: ObjectReference; template: TemplateSendInput };
