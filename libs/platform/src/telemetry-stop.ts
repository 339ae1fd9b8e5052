/**
 * How the graceful shutdown stops what startTelemetry started, without importing the telemetry
 * SDK: `@cmsg/platform` (which holds the shutdown) stays light for every library and test that
 * imports it, and only the apps' instrument.ts loads `@cmsg/platform/telemetry`.
 */
let stopStarted: (() => Promise<void>) | undefined;

/** Called by startTelemetry with what stops it. */
export function setTelemetryStop(stop: () => Promise<void>): void {
  stopStarted = stop;
}

/** Flushes and stops the telemetry once; nothing when it was never started. */
export async function stopTelemetry(): Promise<void> {
  const stop = stopStarted;
  stopStarted = undefined;
  await stop?.();
}
