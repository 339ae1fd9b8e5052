import { assertUnreachable, CatalogError } from '@cmsg/errors';
import type { InteractiveButtonsContent, MessageContent, TemplateContent, TemplateHeader } from './message-content';
import { type Recipient, recipientFields } from './recipient';

/** Field limits the Cloud API enforces; checking them here turns a provider 400 into PREPARE_FAILED. */
export const CLOUD_API_LIMITS = {
  textBody: 4096,
  caption: 1024,
  interactiveBody: 1024,
  interactiveHeader: 60,
  interactiveFooter: 60,
  buttonTitle: 20,
  buttonId: 256,
  maxReplyButtons: 3,
  documentFilename: 240,
} as const;

/** The JSON body of `POST /{phone_number_id}/messages`. */
export type CloudApiMessageRequest = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  type: MessageContent['type'];
} & ({ to: string } | { recipient: string }) &
  Record<string, unknown>;

/** Builds the Cloud API request body; anything the provider would refuse is PREPARE_FAILED. */
export function buildMessageRequest(recipient: Recipient, content: MessageContent): CloudApiMessageRequest {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...recipientFields(recipient),
    type: content.type,
    ...contentFields(content),
  };
}

function contentFields(content: MessageContent): Record<string, unknown> {
  switch (content.type) {
    case 'text':
      return { text: { body: requireText(content.body, 'text body', CLOUD_API_LIMITS.textBody), preview_url: false } };
    case 'image':
    case 'video':
      return { [content.type]: { link: requireLink(content.link), ...optionalCaption(content.caption) } };
    case 'audio':
      return { audio: { link: requireLink(content.link) } };
    case 'document':
      return {
        document: {
          link: requireLink(content.link),
          ...optionalCaption(content.caption),
          ...(content.filename ? { filename: requireText(content.filename, 'document filename', CLOUD_API_LIMITS.documentFilename) } : {}),
        },
      };
    case 'interactive':
      return { interactive: interactiveButtons(content) };
    case 'template':
      return { template: template(content) };
    default:
      return assertUnreachable(content, unsupportedContent);
  }
}

function interactiveButtons(content: InteractiveButtonsContent): Record<string, unknown> {
  const { buttons } = content;
  if (buttons.length < 1 || buttons.length > CLOUD_API_LIMITS.maxReplyButtons) {
    throw prepareFailed(`an interactive message takes 1 to ${CLOUD_API_LIMITS.maxReplyButtons} reply buttons, got ${buttons.length}`);
  }
  const ids = new Set(buttons.map((button) => button.id));
  if (ids.size !== buttons.length) throw prepareFailed('reply button ids must be unique');
  return {
    type: 'button',
    ...(content.header_text
      ? { header: { type: 'text', text: requireText(content.header_text, 'interactive header', CLOUD_API_LIMITS.interactiveHeader) } }
      : {}),
    body: { text: requireText(content.body, 'interactive body', CLOUD_API_LIMITS.interactiveBody) },
    ...(content.footer_text
      ? { footer: { text: requireText(content.footer_text, 'interactive footer', CLOUD_API_LIMITS.interactiveFooter) } }
      : {}),
    action: {
      buttons: buttons.map((button) => ({
        type: 'reply',
        reply: {
          id: requireText(button.id, 'reply button id', CLOUD_API_LIMITS.buttonId),
          title: requireText(button.title, 'reply button title', CLOUD_API_LIMITS.buttonTitle),
        },
      })),
    },
  };
}

function template(content: TemplateContent): Record<string, unknown> {
  const components: Record<string, unknown>[] = [];
  if (content.header) components.push({ type: 'header', parameters: [templateHeaderParameter(content.header)] });
  const bodyParameters = content.body_parameters ?? [];
  if (bodyParameters.length > 0) {
    components.push({
      type: 'body',
      parameters: bodyParameters.map((text, position) => ({ type: 'text', text: requireParameter(text, `body parameter {{${position + 1}}}`) })),
    });
  }
  const buttons = [...(content.button_parameters ?? [])].sort((a, b) => a.index - b.index);
  const buttonIndexes = new Set<number>();
  for (const button of buttons) {
    if (!Number.isInteger(button.index) || button.index < 0) throw prepareFailed(`button parameter index must be an integer >= 0, got ${button.index}`);
    if (buttonIndexes.has(button.index)) throw prepareFailed(`two button parameters share index ${button.index}`);
    buttonIndexes.add(button.index);
    components.push({
      type: 'button',
      sub_type: button.sub_type,
      index: String(button.index),
      parameters: [{ type: 'text', text: requireParameter(button.text, `button ${button.index} parameter`) }],
    });
  }
  return {
    name: requireParameter(content.name, 'template name'),
    language: { code: requireParameter(content.language, 'template language') },
    ...(components.length > 0 ? { components } : {}),
  };
}

function templateHeaderParameter(header: TemplateHeader): Record<string, unknown> {
  switch (header.type) {
    case 'text':
      return { type: 'text', text: requireParameter(header.text, 'header text') };
    case 'image':
    case 'video':
      return { type: header.type, [header.type]: { link: requireLink(header.link) } };
    case 'document':
      return { type: 'document', document: { link: requireLink(header.link), ...(header.filename ? { filename: header.filename } : {}) } };
    default:
      return assertUnreachable(header, unsupportedContent);
  }
}

function requireText(value: string, what: string, maxLength: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw prepareFailed(`${what} is empty`);
  if (value.length > maxLength) throw prepareFailed(`${what} is ${value.length} characters, the limit is ${maxLength}`);
  return value;
}

/** Template parameters cannot be empty (the provider answers 131008) but have no documented length cap here. */
function requireParameter(value: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw prepareFailed(`${what} is empty`);
  return value;
}

function optionalCaption(caption: string | undefined): { caption?: string } {
  return caption ? { caption: requireText(caption, 'caption', CLOUD_API_LIMITS.caption) } : {};
}

/** The provider fetches media itself, so only absolute http(s) URLs make sense. */
function requireLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw prepareFailed('media link is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw prepareFailed(`media link must be http(s), got ${url.protocol}`);
  return link;
}

function prepareFailed(why: string): CatalogError {
  return new CatalogError('PREPARE_FAILED', `The message could not be prepared: ${why}.`);
}

function unsupportedContent(value: unknown): Error {
  return prepareFailed(`unsupported content ${JSON.stringify(value)}`);
}
