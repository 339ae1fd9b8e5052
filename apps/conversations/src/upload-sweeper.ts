import type { Files } from '@cmsg/files';
import type { Logger } from '@cmsg/platform';

/**
 * The periodic job that removes unconfirmed uploads past their expiry and gives their reserved
 * bytes back to the business's quota (a TTL index could delete the documents, not the GridFS
 * content or the reservation). Every replica runs it; every step of a removal is conditional and
 * repeatable, so overlapping passes are harmless.
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
