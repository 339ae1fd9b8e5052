import type { LiveFirstGate } from '@cmsg/send-engine';

/**
 * The conversation actions' handlers, each noting live work at the send engine's gate unless it is a
 * broadcast's send: tags, notes and assignments of action groups hold broadcast sends back too.
 */
export function notingLiveActivity<Handlers extends object>(handlers: Handlers, gate: Pick<LiveFirstGate, 'noteLive'>): Handlers {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (request: { broadcast?: unknown }, ...rest: unknown[]) => {
        if (!request?.broadcast) gate.noteLive();
        return (handler as (...args: unknown[]) => unknown)(request, ...rest);
      },
    ]),
  ) as Handlers;
}
