import type { ConsumerConfig, Kafka } from 'kafkajs';
import type { Logger } from '@cmsg/platform';
import type { CrashRestartOptions } from '@cmsg/platform/kafka';
import type { RetryPolicy } from './retry-backoff';

export interface CommandContext {
  /** The conversation id the command is keyed by. */
  key: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  /** 1 on the first run, then 2, 3, ... on retries of the same command. */
  attempt: number;
  /**
   * Aborted when this process gives the command up: its partition was revoked (another consumer
   * will run it again) or stop() ran out of drain time. Long handlers should pass it on.
   */
  signal: AbortSignal;
}

export interface PoisonContext extends Omit<CommandContext, 'attempt' | 'signal'> {
  /** Handler runs that failed; 0 when the message could not be decoded. */
  attempts: number;
  rawValue: string | null;
}

export type CommandHandler<TCommand> = (command: TCommand, context: CommandContext) => Promise<void>;

/** command is undefined when the message could not be decoded (see context.rawValue). */
export type PoisonHandler<TCommand> = (command: TCommand | undefined, error: unknown, context: PoisonContext) => Promise<void>;

export interface CommandStreamConsumerOptions<TCommand> {
  kafka: Kafka;
  topic: string;
  groupId: string;
  handler: CommandHandler<TCommand>;
  logger: Logger;
  /** Validates the parsed JSON value (e.g. a zod schema's parse); throwing sends it to onPoison. */
  decode?: (value: unknown) => TCommand;
  /** Dead-letter: called once a command failed every attempt, or could not be decoded. */
  onPoison?: PoisonHandler<TCommand>;
  /** Commands running at once, across all keys and partitions (one per key). Default 64. */
  maxConcurrency?: number;
  /** Accepted commands waiting for their key's turn; beyond it fetching waits. Default 1000. */
  maxBuffered?: number;
  /** Completions within this window share one offset commit. Default 500. */
  commitIntervalMs?: number;
  /** How long stop() waits for running handlers before aborting them. Default 30 000. */
  drainTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** A new group starts at the oldest retained command rather than the newest. Default true. */
  fromBeginning?: boolean;
  /** Running the consumer again after a crash kafkajs does not restart from (restartAfterCrashes); default 1 s doubling up to 30 s. */
  crashRestart?: CrashRestartOptions;
  /** Passed to kafka.consumer(); maxWaitTimeInMs defaults to 1000 here so stop() is quick. */
  consumerConfig?: Omit<ConsumerConfig, 'groupId'>;
}

export interface CommandStreamMetrics {
  /** Handlers running now (= keys in flight). */
  inFlight: number;
  /** Accepted commands waiting for their key's turn. */
  buffered: number;
  assignedPartitions: number[];
  /** Last offset this consumer committed per assigned partition: the next one to read after a restart. */
  committedOffsets: Record<number, string>;
  completed: number;
  failedAttempts: number;
  poisoned: number;
}
