import { recentScopedReads } from '@cmsg/dal';
import type { MessageContentSources, SendMessagePorts } from './send-message-ports';

/** How old the template and channel a broadcast send uses may be (docs/broadcasts.md, "Sending"). */
export const BROADCAST_SEND_READ_MAX_AGE_MS = 1_000;

/** The reads of a send that every recipient of a broadcast shares. */
export type BroadcastSendSources = Pick<SendMessagePorts, 'templates' | 'channels'>;

/**
 * The template and channel reads of broadcast sends, each made at most once per
 * BROADCAST_SEND_READ_MAX_AGE_MS per template or channel in this process: every recipient of a
 * broadcast sends the same template on the same channel, so at 80 sends a second these were two
 * MongoDB reads of the same documents per send. A change to either (a template rejected, a
 * channel's limits or token changed) reaches the broadcast's sends within that age; the provider
 * refuses a template it no longer accepts in any case.
 */
export function broadcastSendSources(sources: BroadcastSendSources, { maxAgeMs = BROADCAST_SEND_READ_MAX_AGE_MS, now = Date.now } = {}): BroadcastSendSources {
  const template = recentScopedReads((scope, id) => sources.templates.findById(scope, id), { maxAgeMs, now });
  const templates: MessageContentSources['templates'] = {
    findById: template,
    findByNameAndLanguage: (scope, name, language) => sources.templates.findByNameAndLanguage(scope, name, language),
  };
  return { templates, channels: { findById: recentScopedReads((scope, id) => sources.channels.findById(scope, id), { maxAgeMs, now }) } };
}
