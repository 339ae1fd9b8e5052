import type { BusinessScope, UntranscribedMediaStatus } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import { type InboundMediaDependencies, hasMedia, processInboundMedia } from './inbound-media';
import type { InboundChannel } from './sender-conversation';

/**
 * Statuses a later message of the conversation tries again: `wallet_empty` (the vision wallet may
 * have been topped up since) and `pending` (an ingest given up before the media was settled).
 * `untranscribable` cannot change and `failed` already used its attempts.
 */
const RETRIED_STATUSES = ['wallet_empty', 'pending'];

/**
 * Inbound media left awaiting transcription by an empty vision wallet is transcribed again when the
 * customer writes next (before that message's AI run is queued, so the AI sees it): nothing tells
 * the service when a wallet is topped up, and a customer who writes again is when the AI needs it.
 * A failure here never holds up the new message: the medium stays awaiting for the next one.
 */
export async function retryMediaAwaitingTranscription(
  dependencies: InboundMediaDependencies & { logger: Logger },
  channel: InboundChannel,
  scope: BusinessScope,
  awaitingMessageIds: readonly string[],
  currentMessageId: string,
): Promise<number> {
  const stored = await dependencies.repositories.messages.findByIds(
    scope,
    awaitingMessageIds.filter((id) => id !== currentMessageId),
  );
  const awaiting = stored.filter(hasMedia);
  awaiting.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a._id.localeCompare(b._id));
  let transcribed = 0;
  for (const message of awaiting) {
    if (!RETRIED_STATUSES.includes(message.media.transcription_status)) continue;
    try {
      if (message.media.transcription_status !== 'pending') {
        await dependencies.repositories.messages.reopenTranscription(scope, message._id, message.media.transcription_status as UntranscribedMediaStatus);
      }
      // The first attempt's rules: a transient failure throws and leaves it pending for the next message.
      const outcome = await processInboundMedia(dependencies, channel, { ...message, media: { ...message.media, transcription_status: 'pending' } }, 1);
      if (outcome === 'transcribed') transcribed += 1;
    } catch (error) {
      dependencies.logger.warn({ err: error, message_uuid: message._id, conversation_uuid: message.conversation_id }, 'retrying the transcription of earlier media failed; left awaiting');
    }
  }
  return transcribed;
}
