import type { ConversationEventEnvelope } from '@cmsg/conversation-commands';
import type { ConversationEventBus } from '../conversation-event-bus';

/** The conversation-events topic as a list of what was published, in order. */
export class RecordingBus implements ConversationEventBus {
  readonly published: { key: string; message: ConversationEventEnvelope }[] = [];

  async publish(conversationId: string, message: ConversationEventEnvelope): Promise<void> {
    this.published.push({ key: conversationId, message });
  }
}
