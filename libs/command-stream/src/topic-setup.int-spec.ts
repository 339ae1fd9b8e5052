import { randomUUID } from 'node:crypto';
import { createLogger } from '@cmsg/platform';
import { createKafka } from '@cmsg/platform/kafka';
import { ensureTopics } from './topic-setup';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const logger = createLogger('topic-setup-int-spec', process.env['LOG_LEVEL'] ?? 'silent');

describe('ensureTopics (real broker)', () => {
  const kafka = createKafka(`topic-setup-int-${process.pid}`, brokers, logger);
  const created: string[] = [];

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: created }).catch(() => undefined);
    await admin.disconnect();
  });

  it('lets six processes race to create the same new topics: all return with every partition led, one creates each', async () => {
    const topics = [`test-${randomUUID().slice(0, 8)}-a`, `test-${randomUUID().slice(0, 8)}-b`];
    created.push(...topics);
    const racers = Array.from({ length: 6 }, (_, index) => createKafka(`topic-setup-racer-${index}-${process.pid}`, brokers, logger));

    const results = await Promise.all(racers.map((racer) => ensureTopics(racer, topics, { partitions: 5, timeoutMs: 30_000 })));

    expect(results.flat().sort()).toEqual([...topics].sort());
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      for (const topic of metadata) {
        expect(topic.partitions).toHaveLength(5);
        expect(topic.partitions.every((partition) => partition.leader >= 0)).toBe(true);
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('leaves an existing topic as it is and creates nothing', async () => {
    const topic = `test-${randomUUID().slice(0, 8)}-existing`;
    created.push(topic);
    expect(await ensureTopics(kafka, [topic], { partitions: 2 })).toEqual([topic]);
    expect(await ensureTopics(kafka, [topic], { partitions: 7 })).toEqual([]);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(metadata[0]!.partitions).toHaveLength(2);
    } finally {
      await admin.disconnect();
    }
  });
});
