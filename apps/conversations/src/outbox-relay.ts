import type { EventOutbox } from '@cmsg/events';
import type { Logger } from '@cmsg/platform';

/**
 * The relay of entries a crash left in the outboxes of every collection that has one (whichever
 * service wrote them). Every replica runs it; each runs one pass at a time (a pass that outlasts
 * the interval is not joined by another), and two replicas recording the same entry is harmless:
 * recording is idempotent by entry id.
 */
export function startOutboxRelay(outbox: EventOutbox, intervalMs: number, logger: Logger): { stop(): void } {
  let pass: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    pass ??= outbox
      .flushStale(intervalMs)
      .then((recorded) => {
        if (recorded > 0) logger.info({ entries: recorded }, 'outbox relay recorded entries left behind');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'outbox relay pass failed'))
      .finally(() => {
        pass = undefined;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
