import { ensureTopic } from '@cmsg/command-stream';
import type { Kafka } from 'kafkajs';

/** The command topic exists before the first command is produced (replicas and the runner may race to create it). */
export async function ensureCommandTopic(kafka: Kafka, topic: string, partitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopic(admin, topic, partitions);
  } catch (error) {
    if (!(await admin.listTopics()).includes(topic)) throw error;
  } finally {
    await admin.disconnect();
  }
}
