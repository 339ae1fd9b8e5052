import { type BusinessScope, MessageModel, scopedFilter } from '@cmsg/dal';
import type { Logger } from '@cmsg/platform';
import { type InboundMediaDependencies, type MessageWithMedia, processInboundMedia } from './inbound-media';
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
  conversationId: string,
  currentMessageId: string,
): Promise<number> {
  const awaiting = await MessageModel.find(scopedFilter(scope, { conversation_id: conversationId, is_from_customer: true, media_transcription_pending: true }))
    .sort({ created_at: 1, _id: 1 })
    .lean<MessageWithMedia[]>();
  let transcribed = 0;
  for (const message of awaiting) {
    if (message._id === currentMessageId || !message.media || !RETRIED_STATUSES.includes(message.media.transcription_status)) continue;
    try {
      if (message.media.transcription_status !== 'pending') {
        await MessageModel.updateOne(
          scopedFilter(scope, { _id: message._id, 'media.transcription_status': message.media.transcription_status }),
          { $set: { 'media.transcription_status': 'pending', 'media.transcription_error': null } },
        );
      }
      // The first attempt's rules: a transient failure throws and leaves it pending for the next message.
      const outcome = await processInboundMedia(dependencies, channel, { ...message, media: { ...message.media, transcription_status: 'pending' } }, 1);
      if (outcome === 'transcribed') transcribed += 1;
    } catch (error) {
      dependencies.logger.warn({ err: error, message_uuid: message._id, conversation_uuid: conversationId }, 'retrying the transcription of earlier media failed; left awaiting');
    }
  }
  return transcribed;
}
