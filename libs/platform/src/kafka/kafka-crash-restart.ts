import type { Consumer } from 'kafkajs';
import type { Logger } from '../logger';

export interface CrashRestartOptions {
  /** The first wait before running the consumer again; doubled for each crash in a row. */
  baseMs: number;
  maxMs: number;
}

const DEFAULT_CRASH_RESTART: CrashRestartOptions = { baseMs: 1_000, maxMs: 30_000 };

export interface CrashRestart {
  /** No more restarts (the consumer is being stopped). */
  cancel(): void;
}

/**
 * kafkajs restarts a consumer by itself only after a crash it holds retriable. After any other (a
 * broker restart can end in "Failed to find group coordinator", which it does not retry) the
 * consumer stays disconnected, and its process would hold no partition until it is restarted. This
 * connects and runs it again (`run`: the consumer's own `consumer.run(...)`), waiting `baseMs`,
 * doubled up to `maxMs` while it keeps crashing, and back to `baseMs` once it has joined its group.
 */
export function restartAfterCrashes(consumer: Pick<Consumer, 'on' | 'events' | 'connect'>, run: () => Promise<void>, logger: Logger, name: string, options: CrashRestartOptions = DEFAULT_CRASH_RESTART): CrashRestart {
  let cancelled = false;
  let crashesInARow = 0;
  let timer: NodeJS.Timeout | undefined;

  const runAgain = async (): Promise<void> => {
    if (cancelled) return;
    try {
      await consumer.connect();
      // From here a failure to join is another crash event, handled below.
      await run();
    } catch (error) {
      logger.warn({ err: error, consumer: name }, 'kafka consumer: running again failed');
      schedule();
    }
  };

  const schedule = (): void => {
    if (cancelled || timer) return;
    const delayMs = Math.min(options.maxMs, options.baseMs * 2 ** crashesInARow);
    crashesInARow += 1;
    logger.warn({ consumer: name, delayMs, crashesInARow }, 'kafka consumer: running it again after a crash kafkajs does not restart from');
    timer = setTimeout(() => {
      timer = undefined;
      void runAgain();
    }, delayMs);
  };

  consumer.on(consumer.events.GROUP_JOIN, () => {
    crashesInARow = 0;
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) schedule();
  });
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}
