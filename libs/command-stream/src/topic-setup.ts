import type { Admin, Kafka } from 'kafkajs';

/** Enough partitions for many consumer replicas; keys spread by kafkajs' murmur2 partitioner. */
export const DEFAULT_COMMAND_PARTITIONS = 12;

export interface EnsureTopicsOptions {
  /** Partitions of a topic this call creates; an existing topic is never changed. */
  partitions?: number;
  replicationFactor?: number;
  /** Give up (rethrowing the last error) after this long. */
  timeoutMs?: number;
}

const RETRY_DELAY_MS = 250;

/**
 * Creates the topics that are missing and returns once every partition of each has a leader;
 * answers the topics this call created. Replicas of several apps race to create the same topics at
 * start, and a new topic's metadata takes a moment to reach the broker's metadata cache: meanwhile
 * Kafka answers UNKNOWN_TOPIC_OR_PARTITION or LEADER_NOT_AVAILABLE, which kafkajs' own
 * `waitForLeaders` does not wait out for the first. So everything is retried until the deadline.
 */
export async function ensureTopics(kafka: Kafka, topics: readonly string[], options: EnsureTopicsOptions = {}): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const admin = kafka.admin();
  await admin.connect();
  const created: string[] = [];
  try {
    for (;;) {
      let failure: unknown;
      try {
        const existing = new Set(await admin.listTopics());
        for (const topic of topics.filter((name) => !existing.has(name) && !created.includes(name))) {
          if (await createTopic(admin, topic, options)) created.push(topic);
        }
        if (await haveLeaders(admin, topics)) return created;
        failure = new Error(`kafka: topics ${topics.join(', ')} have no leader after ${timeoutMs} ms`);
      } catch (error) {
        failure = error;
      }
      if (Date.now() >= deadline) throw failure;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  } finally {
    await admin.disconnect();
  }
}

/** False when another process created it first. */
function createTopic(admin: Admin, topic: string, options: EnsureTopicsOptions): Promise<boolean> {
  const partitions = options.partitions ?? DEFAULT_COMMAND_PARTITIONS;
  return admin.createTopics({
    topics: [{ topic, numPartitions: partitions, ...(options.replicationFactor ? { replicationFactor: options.replicationFactor } : {}) }],
    waitForLeaders: false,
  });
}

async function haveLeaders(admin: Admin, topics: readonly string[]): Promise<boolean> {
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [...topics] });
  return topics.every((name) => {
    const partitions = metadata.find((topic) => topic.name === name)?.partitions ?? [];
    return partitions.length > 0 && partitions.every((partition) => partition.leader >= 0);
  });
}
