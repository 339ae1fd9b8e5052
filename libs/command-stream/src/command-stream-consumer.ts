import { setMaxListeners } from 'node:events';
import type { Consumer, ConsumerCrashEvent, ConsumerGroupJoinEvent, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { type Logger, reportConsumerLag } from '@cmsg/platform';
import { type CrashRestart, restartAfterCrashes } from '@cmsg/platform/kafka';
import { waitForBufferSpace } from './buffer-space-wait';
import { decodeCommand, decodeHeaders } from './command-message';
import { CommandExecutor, type CommandJob } from './command-executor';
import type { CommandStreamConsumerOptions, CommandStreamMetrics } from './consumer-options';
import { OffsetCommitter } from './offset-committer';
import { PartitionTracker } from './partition-tracker';
import { PerKeyQueue } from './per-key-queue';
import { DEFAULT_RETRY_POLICY } from './retry-backoff';

interface QueuedJob<TCommand> extends CommandJob<TCommand> {
  /** The tracker of the assignment that accepted it; a revoked one is detached and never committed. */
  tracker: PartitionTracker;
}

type State = 'idle' | 'running' | 'stopping' | 'stopped';

/** While fetching waits for buffer space, the group still needs heartbeats. */
const BUFFER_WAIT_HEARTBEAT_MS = 500;
/** stop() keeps retrying its last commit this long (a rebalance in progress rejects commits). */
const FINAL_COMMIT_TIMEOUT_MS = 5000;

/**
 * Consumes the per-conversation command stream: commands of one key (conversation) run one after
 * another in offset order; different keys run concurrently, even on one partition.
 *
 * Delivery is at least once. The committed offset of a partition is its lowest unfinished command,
 * so a crash re-delivers every unfinished command and possibly finished ones after it; a partition
 * revoked in a rebalance is re-run by its next owner from that offset while this process may still
 * be finishing a command. Handlers must be idempotent by their own keys (action group id, schedule
 * id, inbound message id), never by Kafka offsets.
 *
 * kafkajs' eachBatch only accepts messages into per-key queues and returns, so its fetch loop keeps
 * heartbeating while handlers run for many minutes.
 */
export class CommandStreamConsumer<TCommand = unknown> {
  private readonly consumer: Consumer;
  private readonly topic: string;
  private readonly decode: (value: unknown) => TCommand;
  private readonly logger: Logger;
  private readonly maxConcurrency: number;
  private readonly maxBuffered: number;
  private readonly drainTimeoutMs: number;
  private readonly fromBeginning: boolean;
  private readonly executor: CommandExecutor<TCommand>;
  private readonly committer: OffsetCommitter;

  private readonly queue = new PerKeyQueue<QueuedJob<TCommand>>();
  private readonly trackers = new Map<number, PartitionTracker>();
  private readonly partitionAborts = new Map<number, AbortController>();
  private readonly stopping = new AbortController();
  private readonly wakers = new Set<() => void>();
  private assigned = new Set<number>();
  /** Per partition: the end of the log as last fetched, and the first offset fetched (the lag's base until a commit). */
  private readonly logEnds = new Map<number, { highWatermark: bigint; firstFetched: bigint }>();
  private stopReportingLag: (() => void) | undefined;
  private readonly crashRestart: CrashRestart;
  private readonly groupId: string;
  private memberId: string | undefined;
  private rebalancing = false;
  private state: State = 'idle';
  private running = 0;
  private stopped: Promise<void> | undefined;

  constructor(options: CommandStreamConsumerOptions<TCommand>) {
    this.topic = options.topic;
    this.decode = options.decode ?? ((value) => value as TCommand);
    this.logger = options.logger;
    this.maxConcurrency = positive(options.maxConcurrency ?? 64, 'maxConcurrency');
    this.maxBuffered = positive(options.maxBuffered ?? 1000, 'maxBuffered');
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.fromBeginning = options.fromBeginning ?? true;
    const retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    positive(retryPolicy.attempts, 'retry.attempts');
    unlimitedListeners(this.stopping.signal);

    this.groupId = options.groupId;
    this.consumer = options.kafka.consumer({ maxWaitTimeInMs: 1000, ...options.consumerConfig, groupId: options.groupId });
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => this.onGroupJoin(event));
    this.consumer.on(this.consumer.events.REBALANCING, () => {
      this.rebalancing = true;
    });
    this.consumer.on(this.consumer.events.CRASH, (event) => this.onCrash(event));
    this.crashRestart = restartAfterCrashes(this.consumer, () => this.runConsumer(), this.logger, `command stream ${this.topic}`, options.crashRestart);

    this.executor = new CommandExecutor({
      topic: this.topic,
      handler: options.handler,
      onPoison: options.onPoison,
      retryPolicy,
      logger: this.logger,
      stopSignal: this.stopping.signal,
    });
    this.committer = new OffsetCommitter({
      topic: this.topic,
      intervalMs: options.commitIntervalMs ?? 500,
      logger: this.logger,
      trackers: this.trackers,
      commitOffsets: (offsets) => this.consumer.commitOffsets(offsets),
    });
  }

  /** kafkajs instrumentation events (consumer.events.*), for monitoring and tests. */
  get events(): Consumer['events'] {
    return this.consumer.events;
  }

  readonly on: Consumer['on'] = (...args: Parameters<Consumer['on']>) => this.consumer.on(...args);

  /** Resolves once the consumer has joined its group. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error(`command stream consumer cannot start: it is ${this.state}`);
    this.state = 'running';
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: this.fromBeginning });
    this.stopReportingLag = reportConsumerLag(() => ({ topic: this.topic, group: this.groupId, lag: this.lag() }));
    await this.runConsumer();
  }

  private runConsumer(): Promise<void> {
    return this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.acceptBatch(payload),
    });
  }

  /**
   * Graceful shutdown: stops fetching and starting commands, waits up to drainTimeoutMs for running
   * handlers (then aborts their signals), commits what finished, leaves the group. Waiting commands
   * stay uncommitted and go to the partition's next owner.
   */
  stop(): Promise<void> {
    this.stopped ??= this.drainAndLeave();
    return this.stopped;
  }

  /** Leaves at once as a crash would: no drain, no final commit. For fatal errors and crash tests. */
  async abort(): Promise<void> {
    this.state = 'stopped';
    this.crashRestart.cancel();
    this.stopReportingLag?.();
    this.committer.close();
    this.stopping.abort();
    for (const partition of [...this.trackers.keys()]) this.revoke(partition, 'abort');
    this.wake();
    await this.consumer.disconnect();
  }

  get inFlight(): number {
    return this.running;
  }

  get buffered(): number {
    return this.queue.size;
  }

  metrics(): CommandStreamMetrics {
    return {
      inFlight: this.running,
      buffered: this.queue.size,
      assignedPartitions: [...this.assigned].sort((a, b) => a - b),
      committedOffsets: this.committer.committedOffsets,
      ...this.executor.counters,
    };
  }

  /** Messages between what this member committed (or first fetched) and the end of its partitions' logs. */
  private lag(): number {
    const committed = this.committer.committedOffsets;
    let lag = 0n;
    for (const partition of this.assigned) {
      const end = this.logEnds.get(partition);
      if (!end) continue;
      const base = committed[partition] !== undefined ? BigInt(committed[partition]) : end.firstFetched;
      if (end.highWatermark > base) lag += end.highWatermark - base;
    }
    return Number(lag);
  }

  private async acceptBatch({ batch, resolveOffset, heartbeat, pause, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { partition } = batch;
    const firstFetched = this.logEnds.get(partition)?.firstFetched ?? BigInt(batch.messages[0]?.offset ?? batch.highWatermark);
    this.logEnds.set(partition, { highWatermark: BigInt(batch.highWatermark), firstFetched });
    if (this.state !== 'running') {
      pause();
      return;
    }
    if (!this.assigned.has(partition)) return;
    const tracker = this.trackerFor(partition);
    for (const message of batch.messages) {
      if (this.state !== 'running' || !isRunning() || isStale()) return;
      if (!tracker.isAccepted(message.offset)) {
        if (!(await this.waitForBufferSpace(heartbeat))) return;
        if (this.trackers.get(partition) !== tracker) return;
        tracker.accept(message.offset);
        this.queue.push(`${partition}:${message.key?.toString() ?? ''}`, this.toJob(message, partition, tracker));
        this.pump();
      }
      resolveOffset(message.offset);
    }
  }

  private toJob(message: KafkaMessage, partition: number, tracker: PartitionTracker): QueuedJob<TCommand> {
    return {
      key: message.key?.toString() ?? '',
      partition,
      offset: message.offset,
      headers: decodeHeaders(message.headers),
      rawValue: message.value?.toString('utf8') ?? null,
      decoded: decodeCommand(message, this.decode),
      tracker,
      signal: this.partitionAborts.get(partition)!.signal,
    };
  }

  /** Backpressure: holds the fetch loop, heartbeating, until a key takes a waiting command. */
  private async waitForBufferSpace(heartbeat: () => Promise<void>): Promise<boolean> {
    const result = await waitForBufferSpace({
      isFull: () => this.queue.size >= this.maxBuffered,
      isRunning: () => this.state === 'running',
      nextWake: (timeoutMs) => this.nextWake(timeoutMs),
      heartbeat,
      intervalMs: BUFFER_WAIT_HEARTBEAT_MS,
    });
    if (result.outcome === 'heartbeat_failed') {
      // A rebalance: give the rest of the batch back; kafkajs rejoins and fetches it again.
      this.logger.info({ err: result.error, topic: this.topic }, 'command stream: heartbeat failed while waiting for buffer space');
    }
    return result.outcome === 'space';
  }

  private pump(): void {
    if (this.state !== 'running' || this.rebalancing) return;
    while (this.running < this.maxConcurrency) {
      const next = this.queue.take();
      if (!next) break;
      void this.execute(next.key, next.item);
    }
    this.wake();
  }

  private async execute(queueKey: string, job: QueuedJob<TCommand>): Promise<void> {
    this.running++;
    try {
      if ((await this.executor.run(job)) && job.tracker.complete(job.offset)) this.committer.schedule();
    } catch (error) {
      const { partition, offset, key } = job;
      this.logger.error({ err: error, topic: this.topic, partition, offset, key }, 'command stream: unexpected failure; command left unfinished');
    } finally {
      this.running--;
      this.queue.release(queueKey);
      this.pump();
      this.wake();
    }
  }

  private onGroupJoin({ payload }: ConsumerGroupJoinEvent): void {
    const next = new Set(payload.memberAssignment[this.topic] ?? []);
    // A new member id means this process was out of the group for a while: nothing it held is safe.
    const sameMember = payload.memberId === this.memberId;
    for (const partition of [...this.trackers.keys()]) {
      if (!sameMember || !next.has(partition)) this.revoke(partition, 'rebalance');
    }
    this.memberId = payload.memberId;
    this.assigned = next;
    this.rebalancing = false;
    this.logger.info({ topic: this.topic, memberId: payload.memberId, partitions: [...next] }, 'command stream: joined group');
    this.committer.schedule();
    this.pump();
  }

  private onCrash({ payload }: ConsumerCrashEvent): void {
    this.logger.error({ err: payload.error, topic: this.topic, restart: payload.restart }, 'command stream: kafkajs consumer crashed');
    for (const partition of [...this.trackers.keys()]) this.revoke(partition, 'crash');
    this.assigned = new Set();
    this.memberId = undefined;
  }

  /** Stops this partition here: waiting commands dropped, running ones signalled, offsets never committed again. */
  private revoke(partition: number, reason: string): void {
    this.trackers.delete(partition);
    this.committer.forget(partition);
    this.partitionAborts.get(partition)?.abort();
    this.partitionAborts.delete(partition);
    const dropped = this.queue.dropWhere((job) => job.partition === partition);
    this.logger.info({ topic: this.topic, partition, reason, dropped }, 'command stream: partition released');
  }

  private trackerFor(partition: number): PartitionTracker {
    let tracker = this.trackers.get(partition);
    if (!tracker) {
      tracker = new PartitionTracker();
      const controller = new AbortController();
      unlimitedListeners(controller.signal);
      this.trackers.set(partition, tracker);
      this.partitionAborts.set(partition, controller);
    }
    return tracker;
  }

  private async drainAndLeave(): Promise<void> {
    this.stopReportingLag?.();
    this.crashRestart.cancel();
    if (this.state === 'idle' || this.state === 'stopped') {
      this.state = 'stopped';
      this.committer.close();
      await this.consumer.disconnect();
      return;
    }
    this.state = 'stopping';
    this.stopping.abort();
    this.wake();
    try {
      this.consumer.pause([{ topic: this.topic }]);
    } catch {
      // Not running (crashed without restart): there is no fetching to stop.
    }
    if (!(await this.waitForIdle(this.drainTimeoutMs))) {
      this.logger.warn({ topic: this.topic, inFlight: this.running }, 'command stream: drain timed out; aborting running handlers');
      for (const controller of this.partitionAborts.values()) controller.abort();
    }
    this.queue.dropWhere(() => true);
    // Before disconnect: kafkajs silently skips commits once its runner has stopped.
    await this.committer.commitUntilDone(Date.now() + FINAL_COMMIT_TIMEOUT_MS);
    this.committer.close();
    this.state = 'stopped';
    await this.consumer.disconnect();
  }

  private async waitForIdle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.running > 0 && Date.now() < deadline) await this.nextWake(deadline - Date.now());
    return this.running === 0;
  }

  private nextWake(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}

/** Every running handler of a partition may listen to its signal; Node warns past 10 listeners by default. */
function unlimitedListeners(signal: AbortSignal): void {
  setMaxListeners(0, signal);
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`command stream: ${name} must be a positive integer, got ${value}`);
  return value;
}
