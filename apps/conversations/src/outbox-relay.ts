import type { ConversationOutbox } from '@cmsg/conversations-domain';
import type { Logger } from '@cmsg/platform';

/**
 * The relay of events a crash left in conversation outboxes. Every replica runs it; each runs one
 * pass at a time (a pass that outlasts the interval is not joined by another), and two replicas
 * publishing the same event is harmless: consumers dedupe by event id.
 */
export function startOutboxRelay(outbox: ConversationOutbox, intervalMs: number, logger: Logger): { stop(): void } {
  let pass: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    pass ??= outbox
      .flushStale(intervalMs)
      .then((published) => {
        if (published > 0) logger.info({ events: published }, 'outbox relay published events left behind');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'outbox relay pass failed'))
      .finally(() => {
        pass = undefined;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
