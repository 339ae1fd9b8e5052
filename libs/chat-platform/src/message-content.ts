/** What we can send through the Cloud API messages endpoint, before it becomes a request body. */

export interface TextContent {
  type: 'text';
  body: string;
}

export interface ImageOrVideoContent {
  type: 'image' | 'video';
  /** Public (signed) https URL the provider downloads the media from. */
  link: string;
  caption?: string;
}

/** The Cloud API takes no caption on audio. */
export interface AudioContent {
  type: 'audio';
  link: string;
}

export interface DocumentContent {
  type: 'document';
  link: string;
  caption?: string;
  /** The name the customer's app shows and saves the file under. */
  filename?: string;
}

export interface ReplyButton {
  /** Comes back in the inbound `interactive.button_reply.id` when the customer taps it. */
  id: string;
  title: string;
}

/** An interactive message with 1 to 3 reply buttons. */
export interface InteractiveButtonsContent {
  type: 'interactive';
  body: string;
  buttons: ReplyButton[];
  header_text?: string;
  footer_text?: string;
}

export type TemplateHeader =
  | { type: 'text'; text: string }
  | { type: 'image' | 'video'; link: string }
  | { type: 'document'; link: string; filename?: string };

/** The dynamic suffix of a template's URL button (SPEC's button-parameter object). */
export interface TemplateUrlButtonParameter {
  index: number;
  sub_type: 'url';
  text: string;
}

export interface TemplateContent {
  type: 'template';
  name: string;
  /** Template language code as approved, e.g. `en_US` or `es_MX`. */
  language: string;
  header?: TemplateHeader;
  /** Body variables in order: {{1}}, {{2}}, ... */
  body_parameters?: string[];
  button_parameters?: TemplateUrlButtonParameter[];
}

export type MessageContent =
  | TextContent
  | ImageOrVideoContent
  | AudioContent
  | DocumentContent
  | InteractiveButtonsContent
  | TemplateContent;

export type MessageContentType = MessageContent['type'];
