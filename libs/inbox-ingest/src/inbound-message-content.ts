import type { WebhookMessage } from '@cmsg/chat-platform';

/** The media part of an inbound message, before its bytes are fetched. */
export interface InboundMediaRef {
  provider_media_id: string;
  mime_type: string;
  /** Documents carry the customer's file name. */
  file_name: string | null;
  voice: boolean;
}

export interface InboundContent {
  /** The provider's message type (text, image, audio, video, document, sticker, interactive, button, ...). */
  content_type: string;
  /** What the customer wrote: the text, a caption, or the title of the button tapped ('' for none). */
  body: string;
  media: InboundMediaRef | null;
}

const MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker'] as const;

/** What ingestion stores of a message; unknown types keep their type name and an empty body. */
export function inboundContentOf(message: WebhookMessage): InboundContent {
  const contentType = message.type;
  if (contentType === 'text') return { content_type: 'text', body: message.text?.body ?? '', media: null };
  if (contentType === 'interactive') {
    const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
    return { content_type: 'interactive', body: reply?.title ?? '', media: null };
  }
  if (contentType === 'button') return { content_type: 'button', body: message.button?.text ?? '', media: null };
  const mediaType = MEDIA_TYPES.find((type) => type === contentType);
  const media = mediaType ? message[mediaType] : undefined;
  if (media) {
    return {
      content_type: contentType,
      body: media.caption ?? '',
      media: { provider_media_id: media.id, mime_type: media.mime_type, file_name: media.filename ?? null, voice: media.voice ?? false },
    };
  }
  return { content_type: contentType, body: '', media: null };
}
