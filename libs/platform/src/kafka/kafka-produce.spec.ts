import { isCatalogError } from '@cmsg/errors';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, type Producer } from 'kafkajs';
import { sendKeyedMany } from './kafka';

function producerFailingWith(error: Error): Producer {
  return { send: async () => Promise.reject(error) } as unknown as Producer;
}

describe('sendKeyedMany', () => {
  it('answers SERVICE_UNAVAILABLE when Kafka stays out of reach after the client retries', async () => {
    const unreachable = new KafkaJSNonRetriableError(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19092'));
    const error = await sendKeyedMany(producerFailingWith(unreachable), 'topic', [{ key: 'k', value: 1 }]).catch((caught: unknown) => caught);
    expect(isCatalogError(error) && error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error).toMatchObject({ cause: unreachable });
  });

  it('lets any other failure through as it is', async () => {
    const bug = new TypeError('not a Kafka error');
    await expect(sendKeyedMany(producerFailingWith(bug), 'topic', [{ key: 'k', value: 1 }])).rejects.toBe(bug);
  });

  it('sends every entry as JSON under its key, with acks from all in-sync replicas', async () => {
    const sent: unknown[] = [];
    const producer = { send: async (record: unknown) => void sent.push(record) } as unknown as Producer;
    await sendKeyedMany(producer, 'topic', [{ key: 'a', value: { n: 1 } }, { key: 'b', value: 'x' }]);
    expect(sent).toEqual([{ topic: 'topic', acks: -1, messages: [expect.objectContaining({ key: 'a', value: '{"n":1}' }), expect.objectContaining({ key: 'b', value: '"x"' })] }]);
  });
});
