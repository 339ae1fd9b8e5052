import type { MessageContent, TemplateHeader } from '@cmsg/chat-platform';
import { assertUnreachable, CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import { assertTranscriptionSupplied } from '@cmsg/files';
import type { StoredContact, StoredConversation } from '../conversation/conversation-resolver';
import type { OutboundFiles } from './outbound-file';
import { paymentMarkerSource } from './payment-marker-source';
import { renderPaymentMarkers } from './payment-markers';
import { resolveQuickReply } from './resolve-quick-reply';
import { resolveTemplate } from './resolve-template';
import type { MessageContentSources } from './send-message-ports';
import { MAX_TEXT_LENGTH, type ObjectReference, type SendMessageCommand, type TemplateSendInput, unsupportedContent } from './send-message.command';
import { type PreparedTemplateHeader, prepareTemplateSend } from './template-send';

/** One message to deliver: what the provider gets and what the timeline keeps. */
export interface OutboundPart {
  content: MessageContent;
  body: string;
  /** text, template, or the media type of a file (image, video, audio, document). */
  contentType: string;
  /** What a media says, as the sender supplied it (kept for the AI and the timeline). */
  transcription?: string;
  /** The upload a media part sends (the timeline shows it). */
  file?: { uuid: string; mimeType: string };
}

/** What the content rules of a send look at. */
export interface SendContext {
  scope: BusinessScope;
  files: OutboundFiles;
  sources: MessageContentSources;
  conversation: StoredConversation;
  contact: StoredContact;
  isTester: boolean;
  windowOpen: boolean;
}

/** Resolves and checks everything a send needs; nothing is sent before this returns. */
export async function planParts(context: SendContext, command: SendMessageCommand): Promise<OutboundPart[]> {
  const { content } = command;
  switch (content.kind) {
    case 'text':
      requireOpenWindow(context);
      return textParts(context, [content.text]);
    case 'file':
      if (context.isTester) throw new CatalogError('TESTER_CONVERSATION_NOT_WRITABLE');
      requireOpenWindow(context);
      return fileParts(context, content);
    case 'quick_reply':
      requireOpenWindow(context);
      return quickReplyParts(context, content.quick_reply);
    case 'template':
      return [await templatePart(context, content.template)];
    case 'quick_reply_or_template':
      return context.windowOpen ? quickReplyParts(context, content.quick_reply) : [await templatePart(context, content.template)];
    default:
      return assertUnreachable(content, unsupportedContent);
  }
}

/** SPEC 1.3: free-form messages only while the 24 h window is open, at the conversation's own now. */
function requireOpenWindow(context: SendContext): void {
  if (!context.windowOpen) throw new CatalogError('WINDOW_CLOSED');
}

async function quickReplyParts(context: SendContext, reference: ObjectReference): Promise<OutboundPart[]> {
  const quickReply = await resolveQuickReply(context.sources.quickReplies, context.scope, reference);
  return textParts(
    context,
    quickReply.actions.map((action) => action.text),
  );
}

async function textParts(context: SendContext, texts: string[]): Promise<OutboundPart[]> {
  return textOf(await renderPaymentMarkers(texts, paymentMarkerSource(context.sources, context.scope, context.conversation._id)));
}

/** Text parts of texts whose markers are already replaced. */
function textOf(texts: string[]): OutboundPart[] {
  return texts.map((body) => {
    if (body.length > MAX_TEXT_LENGTH) {
      throw new CatalogError('PREPARE_FAILED', `With its payment markers replaced the text is ${body.length} characters; the limit is ${MAX_TEXT_LENGTH}.`);
    }
    return { content: { type: 'text', body }, body, contentType: 'text' };
  });
}

/** The chat platform's caption limit (image, video, document). */
const MAX_CAPTION_LENGTH = 1024;

/**
 * A confirmed upload, its text as the caption. Audio takes no caption on the chat platform, so an
 * audio's text follows it as a text message of its own rather than being dropped.
 */
async function fileParts(context: SendContext, input: { file_uuid: string; caption?: string; transcription?: string }): Promise<OutboundPart[]> {
  const file = await context.files.fileForSend(context.scope, input.file_uuid);
  assertTranscriptionSupplied(file, input.transcription, 'message_media');
  const [caption = ''] = input.caption === undefined ? [] : await renderPaymentMarkers([input.caption], paymentMarkerSource(context.sources, context.scope, context.conversation._id));
  const type = mediaTypeOf(file.mime_type);
  const transcription = input.transcription?.trim();
  const media = (content: MessageContent, body: string): OutboundPart => ({
    content,
    body,
    contentType: type,
    ...(transcription ? { transcription } : {}),
    file: { uuid: file.uuid, mimeType: file.mime_type },
  });
  if (type === 'audio') {
    const audio = media({ type, link: file.link }, '');
    return caption ? [audio, ...textOf([caption])] : [audio];
  }
  if (caption.length > MAX_CAPTION_LENGTH) {
    throw new CatalogError('INVALID_REQUEST', `A media caption is at most ${MAX_CAPTION_LENGTH} characters (the chat platform's limit); this one is ${caption.length}.`);
  }
  const captionField = caption ? { caption } : {};
  return [
    media(type === 'document' ? { type, link: file.link, filename: file.file_name, ...captionField } : { type, link: file.link, ...captionField }, caption),
  ];
}

function mediaTypeOf(mimeType: string): 'image' | 'video' | 'audio' | 'document' {
  const family = mimeType.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'document';
}

async function templatePart(context: SendContext, input: TemplateSendInput): Promise<OutboundPart> {
  const template = await resolveTemplate(context.sources.templates, context.scope, input.template, context.conversation.channel_id);
  const prepared = prepareTemplateSend(template, input, { isTester: context.isTester, contactHasPhone: Boolean(context.contact.phone), consent: consentOf(context.contact) });
  return {
    content: {
      type: 'template',
      name: prepared.name,
      language: prepared.language,
      ...(prepared.header ? { header: await headerContent(context, prepared.header) } : {}),
      body_parameters: prepared.bodyParameters,
      button_parameters: prepared.buttonParameters,
    },
    body: prepared.renderedBody,
    contentType: 'template',
  };
}

async function headerContent(context: SendContext, header: PreparedTemplateHeader): Promise<TemplateHeader> {
  if (header.type === 'text') return header;
  const file = await context.files.fileForSend(context.scope, header.file_uuid);
  assertTranscriptionSupplied(file, header.transcription, 'template_header');
  return header.type === 'document' ? { type: header.type, link: file.link, filename: file.file_name } : { type: header.type, link: file.link };
}

function consentOf(contact: SendContext['contact']): { marketing?: string | null; utility?: string | null } {
  const consent = (contact as { consent?: { marketing?: { status?: string | null } | null; utility?: { status?: string | null } | null } | null }).consent;
  return { marketing: consent?.marketing?.status, utility: consent?.utility?.status };
}
