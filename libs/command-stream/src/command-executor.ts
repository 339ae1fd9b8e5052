import { REQUEST_ID_HEADER, cmsgMetrics, runWithRequestContext, type Logger } from '@cmsg/platform';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api';
import type { DecodedCommand } from './command-message';
import type { CommandContext, CommandHandler, PoisonHandler } from './consumer-options';
import { backoffDelayMs, sleepUnlessAborted, type RetryPolicy } from './retry-backoff';

export interface CommandJob<TCommand> {
  key: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  rawValue: string | null;
  decoded: DecodedCommand<TCommand>;
  /** Aborted when this process gives the command up (partition revoked, drain timed out). */
  signal: AbortSignal;
}

export interface CommandExecutorOptions<TCommand> {
  topic: string;
  handler: CommandHandler<TCommand>;
  onPoison: PoisonHandler<TCommand> | undefined;
  retryPolicy: RetryPolicy;
  logger: Logger;
  /** Aborted when the consumer stops: back-offs end early and the command is left for the next owner. */
  stopSignal: AbortSignal;
}

/** Runs one command: the handler with retries and back-off, then the dead-letter path. */
const tracer = trace.getTracer('cmsg-command-stream');

export class CommandExecutor<TCommand> {
  readonly counters = { completed: 0, failedAttempts: 0, poisoned: 0 };

  constructor(private readonly options: CommandExecutorOptions<TCommand>) {}

  /**
   * True when the command is done with (handled, or dead-lettered), so its offset may be committed;
   * false when it was given up unfinished (revoked or stopping), so its next owner runs it again.
   */
  async run(job: CommandJob<TCommand>): Promise<boolean> {
    if (!job.decoded.ok) {
      await this.deadLetter(job, undefined, job.decoded.error, 0);
      return true;
    }
    const { command } = job.decoded;
    const { retryPolicy, logger, stopSignal } = this.options;
    for (let attempt = 1; ; attempt++) {
      if (job.signal.aborted) return false;
      try {
        await this.invoke(command, job, attempt);
        this.counters.completed++;
        return true;
      } catch (error) {
        if (job.signal.aborted) return false;
        this.counters.failedAttempts++;
        const lastAttempt = attempt >= retryPolicy.attempts;
        logger.warn({ err: error, ...this.where(job), attempt, willRetry: !lastAttempt }, 'command stream: handler failed');
        if (lastAttempt) {
          await this.deadLetter(job, command, error, attempt);
          return true;
        }
        await sleepUnlessAborted(backoffDelayMs(attempt, retryPolicy), job.signal, stopSignal);
        if (stopSignal.aborted) return false;
      }
    }
  }

  /**
   * One handler run, as a CONSUMER span in the trace of whoever produced the command (its
   * traceparent header): kafkajs' own batch spans start traces of their own, and the handler runs
   * after the batch was accepted, outside them.
   */
  private invoke(command: TCommand, job: CommandJob<TCommand>, attempt: number): Promise<void> {
    const started = performance.now();
    const { topic } = this.options;
    const producerContext = propagation.extract(ROOT_CONTEXT, job.headers);
    const attributes = {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': topic,
      'messaging.destination.partition.id': String(job.partition),
      'messaging.kafka.message.key': job.key,
      'messaging.kafka.offset': job.offset,
      'cmsg.attempt': attempt,
    };
    return tracer.startActiveSpan(`process ${topic}`, { kind: SpanKind.CONSUMER, attributes }, producerContext, async (span) => {
      try {
        await this.invokeHandler(command, job, attempt);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
        cmsgMetrics.kafkaHandler(topic, (performance.now() - started) / 1000);
      }
    });
  }

  private invokeHandler(command: TCommand, job: CommandJob<TCommand>, attempt: number): Promise<void> {
    const context: CommandContext = {
      key: job.key,
      partition: job.partition,
      offset: job.offset,
      headers: job.headers,
      attempt,
      signal: job.signal,
    };
    const requestId = job.headers[REQUEST_ID_HEADER];
    const run = (): Promise<void> => this.options.handler(command, context);
    return requestId ? runWithRequestContext({ requestId }, run) : run();
  }

  /** Never silent: logged at error level with the raw value, then handed to onPoison if given. */
  private async deadLetter(job: CommandJob<TCommand>, command: TCommand | undefined, error: unknown, attempts: number): Promise<void> {
    this.counters.poisoned++;
    const { logger, onPoison } = this.options;
    logger.error({ err: error, ...this.where(job), attempts, rawValue: job.rawValue }, 'command stream: command dead-lettered');
    if (!onPoison) return;
    const { key, partition, offset, headers, rawValue } = job;
    try {
      await onPoison(command, error, { key, partition, offset, headers, rawValue, attempts });
    } catch (poisonError) {
      logger.error({ err: poisonError, ...this.where(job), rawValue }, 'command stream: onPoison failed; command dropped');
    }
  }

  private where(job: CommandJob<TCommand>): Record<string, unknown> {
    return { topic: this.options.topic, partition: job.partition, offset: job.offset, key: job.key };
  }
}
