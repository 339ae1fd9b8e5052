import type { Logger } from './logger';
import { stopTelemetry } from './telemetry-stop';

export type Closer = { name: string; close: () => Promise<void> };

/**
 * On SIGTERM/SIGINT: stop taking new work, let in-flight work finish (each closer drains its
 * own), then exit. A second signal or the grace period forces the exit.
 */
export function installGracefulShutdown(logger: Logger, closers: Closer[], graceMs: number): void {
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'draining before exit');
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'grace period over, exiting with work in flight');
      process.exit(1);
    }, graceMs);
    timer.unref();
    for (const closer of closers) {
      try {
        const started = Date.now();
        await closer.close();
        logger.debug({ closer: closer.name, ms: Date.now() - started }, 'closed');
      } catch (error) {
        logger.error({ err: error, closer: closer.name }, 'closer failed');
      }
    }
    const telemetryStarted = Date.now();
    await stopTelemetry();
    logger.info({ telemetry_shutdown_ms: Date.now() - telemetryStarted }, 'drained, exiting');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
