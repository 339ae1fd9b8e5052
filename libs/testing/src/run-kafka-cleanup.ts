import { type Admin, Kafka, logLevel } from 'kafkajs';

/**
 * Deletes the Kafka topics and consumer groups of one stack's run (every name starts with its
 * KAFKA_TOPIC_PREFIX, `run-<id>.`), once its apps have stopped. Each stack creates its own topics
 * (about 80 partitions); a development broker that kept them all, run after run, held 17,000
 * partition directories after a few days and took so long to load them on restart that creating a
 * topic failed and the next stack's gateway gave up. A broker that is down (a fault test stopped
 * it) costs only the timeout; what a failed cleanup leaves behind slows later runs, not breaks them.
 */
export async function deleteRunTopicsAndGroups(brokers: string[], prefix: string, timeoutMs = 15_000): Promise<{ topics: number; groups: number }> {
  // Never a prefix that could name another run's topics, or every topic.
  if (!/^[\w-]+\.([\w-]+\.)*$/.test(prefix)) throw new Error(`refusing to delete Kafka topics by the prefix ${JSON.stringify(prefix)}`);
  const kafka = new Kafka({
    clientId: 'stack-cleanup',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 2 },
  });
  const admin = kafka.admin();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka cleanup of ${prefix} took over ${timeoutMs} ms`)), timeoutMs);
  });
  const cleanup = async () => {
    await admin.connect();
    // The groups first: once their topics are gone the broker drops an empty group by itself, and
    // deleting it then fails as not found.
    const groups = (await admin.listGroups()).groups.map((group) => group.groupId).filter((group) => group.startsWith(prefix));
    const deletedGroups = await deleteEmptyGroups(admin, groups);
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: timeoutMs });
    return { topics: topics.length, groups: deletedGroups.length };
  };
  try {
    return await Promise.race([cleanup(), timeout]);
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * The groups deleted. A group whose member was killed stays non-empty until its session times out
 * and refuses deletion (kafkajs then rejects with the groups that failed); the broker drops it later.
 */
async function deleteEmptyGroups(admin: Admin, groups: string[]): Promise<string[]> {
  if (groups.length === 0) return [];
  try {
    await admin.deleteGroups(groups);
    return groups;
  } catch (error) {
    const failed = new Set(((error as { groups?: { groupId: string }[] }).groups ?? []).map((group) => group.groupId));
    return failed.size === 0 ? [] : groups.filter((group) => !failed.has(group));
  }
}
