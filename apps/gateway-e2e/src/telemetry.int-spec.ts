import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { contactSeed, createTestBusiness, integrationStack } from '@cmsg/testing';
import { KafkaTopicProbe } from '@cmsg/testing/kafka';

describe('one request id and one trace from the gateway through gRPC to Kafka', () => {
  it('carries the trace context over HTTP, gRPC metadata and Kafka headers, and the request id into every log line', async () => {
    let conversationUuid = '';
    const business = await createTestBusiness((seed) => {
      conversationUuid = contactSeed(seed).conversation!.uuid!;
    });
    const probe = KafkaTopicProbe.forStackTopic('conversation-events');
    await probe.start();
    try {
      const requestId = randomUUID();
      const traceId = randomBytes(16).toString('hex');
      const response = await business.api.post(
        '/conversation/pending',
        { conversation: { uuid: conversationUuid } },
        { 'x-request-id': requestId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      );
      expect(response.status).toBe(200);

      const event = await probe.waitFor((message) => message.key === conversationUuid);
      expect(event.headers['x-request-id']).toBe(requestId);
      expect(event.headers['traceparent']).toContain(traceId);

      const { logDir } = integrationStack();
      for (const service of ['gateway-1', 'conversations']) {
        // Log lines are written asynchronously: give them a moment to reach the file.
        const lines = await eventually(() =>
          readFileSync(path.join(logDir, `${service}.log`), 'utf8')
            .split('\n')
            .filter((line) => line.includes(requestId))
            .map((line) => JSON.parse(line) as { request_id?: string; trace_id?: string }),
        );
        expect({ service, hasLines: lines.length > 0 }).toEqual({ service, hasLines: true });
        for (const line of lines) expect(line).toMatchObject({ request_id: requestId, trace_id: traceId });
      }
    } finally {
      await probe.stop();
    }
  });
});

/** Polls until `read` finds rows; the deadline only stops a hung wait (a loaded machine may flush logs late). */
async function eventually<T>(read: () => T[], timeoutMs = 20_000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  let rows = read();
  while (rows.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    rows = read();
  }
  return rows;
}
