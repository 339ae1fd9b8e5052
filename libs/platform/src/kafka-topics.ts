/** Topic names; a prefix (KAFKA_TOPIC_PREFIX) lets several stacks or test runs share one cluster. */
export const TOPIC = {
  /** Every background command on a conversation, keyed by conversation uuid (DESIGN.md). */
  conversationCommands: 'conversation-commands',
  /** Facts about conversations (inbox status changes, ...), keyed by conversation uuid. */
  conversationEvents: 'conversation-events',
  /** Verified chat platform webhook events (messages, statuses), keyed by `<phone_number_id>:<sender>`. */
  chatInbound: 'chat-inbound',
  /** Send slices of running broadcasts (docs/broadcasts.md), keyed by `<broadcast>:<first seq>` to spread over every partition. */
  broadcastSends: 'broadcast-sends',
} as const;

export function topicName(prefix: string, topic: (typeof TOPIC)[keyof typeof TOPIC]): string {
  return `${prefix}${topic}`;
}
