/** The fields of a message the AI's timeline reads. */
export interface TimelineMessageFields {
  body?: string | null;
  content_type: string;
  /** Image description, speech to text or document text (inbound), or the one a sender supplied (outbound). */
  transcription?: string | null;
}

const TRANSCRIPTION_LABELS: Record<string, string> = {
  image: 'Image description',
  sticker: 'Sticker description',
  audio: 'Audio transcription',
  video: 'Video transcription',
  document: 'Document text',
};

/**
 * A message as one line of the AI's context. The AI cannot see media: it reads the caption and the
 * transcription, labelled so it knows what the customer sent (a voice note, a photo). Media
 * without a transcription (still awaiting one) is named by its type, so the AI knows something was
 * sent that it cannot read.
 */
export function timelineTextOf(message: TimelineMessageFields): string {
  const body = message.body?.trim() ?? '';
  const transcription = message.transcription?.trim() ?? '';
  if (transcription) {
    const label = TRANSCRIPTION_LABELS[message.content_type] ?? `Transcription of the ${message.content_type}`;
    return [body, `[${label}: ${transcription}]`].filter(Boolean).join('\n');
  }
  if (message.content_type in TRANSCRIPTION_LABELS) return [`[${message.content_type}, not transcribed]`, body].filter(Boolean).join(' ');
  return body || `[${message.content_type}]`;
}
