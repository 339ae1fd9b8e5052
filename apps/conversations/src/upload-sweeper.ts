import type { Files } from '@cmsg/files';
import type { Logger } from '@cmsg/platform';

/**
 * The periodic job that removes unconfirmed uploads past their expiry (FerretDB has no TTL
 * index). Every replica runs it; removals are compare-and-set, so overlapping passes are harmless.
 */
export function startUploadSweeper(files: Files, intervalMs: number, logger: Logger): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    files
      .sweepExpiredUploads()
      .then((removed) => {
        if (removed.files > 0) logger.info({ files: removed.files, bytes: removed.bytes }, 'expired uploads removed');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'upload sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
