import { type ContactErasurePorts, type ContactPorts, runDueErasures, runErasurePass } from '@cmsg/conversations-domain';
import { ContactErasureRepository, ConversationDataEraser, FileContentStore, businessScope } from '@cmsg/dal';
import type { OutboxRecorder } from '@cmsg/events';
import type { Logger } from '@cmsg/platform';

/**
 * A pass's lease: how long a pass whose process died blocks its retry. Above what deleting one
 * conversation's data takes; a pass that outlives it is only run again by another replica (every
 * step is a repeatable delete, and only the holder of the newer lease can settle or finish it).
 */
const ERASURE_LEASE_MS = 15_000;
/** The wait before the settling pass: longer than a write in flight at the first pass takes to land. */
const ERASURE_SETTLE_MS = 3_000;
/** How often every replica looks for due passes, and how many it runs per look. */
const ERASURE_SWEEP = { intervalMs: 1_000, limit: 20 } as const;

/** The erasure use cases' ports over the data layer and GridFS (built once, in main.ts). */
export function contactErasurePorts(contacts: ContactPorts, events: OutboxRecorder): ContactErasurePorts {
  const contents = new FileContentStore();
  return {
    contacts: contacts.contacts,
    conversations: contacts.conversations,
    erasures: new ContactErasureRepository(),
    data: new ConversationDataEraser(),
    mediaContent: { delete: (contentId) => contents.delete(contentId) },
    events,
    clock: () => new Date(),
    timing: { leaseMs: ERASURE_LEASE_MS, settleMs: ERASURE_SETTLE_MS },
  };
}

/**
 * Runs erasures: the first pass of a request right after its answer (eraseSoon), and every pass
 * that is due (the settling passes; passes whose process died) once a second, in every replica.
 * Claims make each pass run once at a time; every step of a pass is repeatable.
 */
export function startContactErasureWorker(ports: ContactErasurePorts, logger: Logger): { eraseSoon(businessId: string, contactId: string): void; stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    const tracked = work.catch((error: unknown) => logger.warn({ err: error }, 'contact erasure pass failed; the sweeper retries it')).finally(() => running.delete(tracked));
    running.add(tracked);
  };
  let sweep: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (sweep) return;
    sweep = runDueErasures(ports, ERASURE_SWEEP.limit)
      .catch((error: unknown) => logger.warn({ err: error }, 'contact erasure sweep failed'))
      .finally(() => {
        sweep = undefined;
      });
  }, ERASURE_SWEEP.intervalMs);
  timer.unref();
  return {
    eraseSoon: (businessId, contactId) =>
      track(
        ports.erasures.findById(businessScope(businessId), contactId).then((erasure) => (erasure ? runErasurePass(ports, erasure) : null)),
      ),
    stop: async () => {
      clearInterval(timer);
      await Promise.all([...running, sweep]);
    },
  };
}
