import { randomUUID } from 'node:crypto';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { eventually } from './eventually';
import { integrationStack } from './integration-stack';
import { deleteRunTopicsAndGroups } from './run-kafka-cleanup';

describe('deleteRunTopicsAndGroups (a stopped stack leaves no topics behind)', () => {
  const brokers = () => integrationStack().env['KAFKA_BROKERS']!.split(',');
  let kafka: Kafka;
  let admin: Admin;

  beforeAll(async () => {
    kafka = new Kafka({ clientId: 'cleanup-spec', brokers: brokers(), logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin.disconnect();
  });

  it("deletes the run's topics and empty consumer groups, and nothing named otherwise", async () => {
    const id = randomUUID().slice(0, 8);
    const prefix = `cleanup-${id}.`;
    const ours = [`${prefix}conversation-commands`, `${prefix}readyz-1234.chat-inbound`];
    // Starts with the same characters but is another run's prefix.
    const another = `cleanup-${id}x.conversation-commands`;
    try {
      await admin.createTopics({ topics: [...ours, another].map((topic) => ({ topic, numPartitions: 3 })), waitForLeaders: true });
      const group = `${prefix}actions-runner`;
      const consumer = kafka.consumer({ groupId: group });
      await consumer.connect();
      await consumer.subscribe({ topic: ours[0]!, fromBeginning: true });
      await consumer.run({ eachMessage: async () => undefined });
      await eventually(
        () => admin.describeGroups([group]),
        (described) => described.groups[0]?.state === 'Stable',
      );
      await consumer.disconnect();

      const deleted = await deleteRunTopicsAndGroups(brokers(), prefix);

      expect(deleted).toEqual({ topics: 2, groups: 1 });
      const left = await eventually(
        () => admin.listTopics(),
        (topics) => !topics.some((topic) => topic.startsWith(prefix)),
      );
      expect(left).toContain(another);
      expect((await admin.listGroups()).groups.map((listed) => listed.groupId)).not.toContain(group);
    } finally {
      await admin.deleteTopics({ topics: [another] }).catch(() => undefined);
    }
  });

  it('refuses a prefix that could name other runs or every topic', async () => {
    for (const prefix of ['', '.', 'run-1', 'run-1.*', 'run 1.']) {
      await expect(deleteRunTopicsAndGroups(brokers(), prefix)).rejects.toThrow('refusing to delete Kafka topics');
    }
  });
});
