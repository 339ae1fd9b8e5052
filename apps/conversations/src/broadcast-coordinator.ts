import { type CoordinatorPorts, runDueBroadcasts } from '@cmsg/broadcasts-domain';
import type { Logger } from '@cmsg/platform';

/** How often every replica looks for due broadcast steps, and how many it takes per look. */
const BROADCAST_SWEEP = { intervalMs: 200, limit: 20, concurrency: 4 } as const;

/**
 * Runs the broadcasts' coordinator steps (docs/broadcasts.md) in every replica: claims make each
 * step run once at a time, and every step starts from what is stored, so any replica may take the
 * next one. `wake` sweeps at once (a broadcast just created or resumed).
 */
export function startBroadcastCoordinator(ports: CoordinatorPorts, logger: Logger): { wake(): void; stop(): Promise<void> } {
  let sweep: Promise<unknown> | undefined;
  let again = false;
  const run = (): void => {
    if (sweep) {
      again = true;
      return;
    }
    sweep = runDueBroadcasts(ports, BROADCAST_SWEEP)
      .catch((error: unknown) => logger.warn({ err: error }, 'broadcast coordinator sweep failed'))
      .finally(() => {
        sweep = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, BROADCAST_SWEEP.intervalMs);
  timer.unref();
  return {
    wake: run,
    stop: async () => {
      clearInterval(timer);
      await sweep;
    },
  };
}
