import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type ActionsBusiness, createActionsBusiness, disconnectStackDatabase, openConversation, runGroup } from './action-group-fixtures';
import { storedCollection } from '@cmsg/testing';

// Generous: the suite shares one machine with every other stack and test run.
jest.setTimeout(240_000);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A receiver as a business would run it: records every attempt; answers 500 to the first `failFirst` ones. */
async function startReceiver(failFirst: number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = received.length < failFirst ? 500 : 200;
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** The receiver's check, written from CONTRACT 4 alone: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">. */
function signatureIsValid(secret: string, body: string, header: string | string[] | undefined): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex')) && Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
}

async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('action groups: webhooks (CONTRACT 4)', () => {
  const allSecret = 'whsec_all_events_0123456789';
  const finishedSecret = 'whsec_finished_only_0123456789';
  let all: Awaited<ReturnType<typeof startReceiver>>;
  let finishedOnly: Awaited<ReturnType<typeof startReceiver>>;
  let business: ActionsBusiness;
  let conversation: string;

  beforeAll(async () => {
    all = await startReceiver(1);
    finishedOnly = await startReceiver(0);
    business = await createActionsBusiness((seed) => {
      seed.webhooks = [
        { url: `${all.url}/hooks/all`, secret: allSecret, events: ['action.failed', 'action_group.finished'] },
        { url: `${finishedOnly.url}/hooks/finished`, secret: finishedSecret, events: ['action_group.finished'] },
      ];
      conversation = openConversation(seed);
    });
  });

  afterAll(async () => {
    await disconnectStackDatabase();
    for (const receiver of [all, finishedOnly]) {
      receiver.server.closeAllConnections();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });

  it('signs every delivery, retries a failed attempt with the same event id, and sends each endpoint only its events', async () => {
    const group = await runGroup(business.api, {
      conversation: { uuid: conversation },
      stop_on_error: false,
      escalate_on_error: false,
      actions: [{ type: 'assign_label', tags: [{ name: 'No such tag' }] }, { type: 'context_note', note: 'webhook test' }],
    });
    expect(group.status).toBe('failed');

    const delivered = (receiver: typeof all, type: string) => receiver.received.filter((attempt) => attempt.answered === 200 && JSON.parse(attempt.body).type === type);
    // The first attempt of whichever event came first failed; it arrives again after the back-off (5 s).
    await waitFor('both events at the first endpoint', () => (delivered(all, 'action.failed').length && delivered(all, 'action_group.finished').length ? true : undefined));
    await waitFor('the group event at the second endpoint', () => (delivered(finishedOnly, 'action_group.finished').length ? true : undefined));

    for (const attempt of all.received) {
      expect(attempt.path).toBe('/hooks/all');
      expect(attempt.headers['content-type']).toBe('application/json');
      expect(signatureIsValid(allSecret, attempt.body, attempt.headers['x-webhook-signature'])).toBe(true);
      expect(signatureIsValid(finishedSecret, attempt.body, attempt.headers['x-webhook-signature'])).toBe(false);
    }
    for (const attempt of finishedOnly.received) expect(signatureIsValid(finishedSecret, attempt.body, attempt.headers['x-webhook-signature'])).toBe(true);
    // Standard Webhooks headers too: the event id, and a signature keyed with the seeded secret as given (not whsec_<base64>).
    for (const attempt of all.received) {
      expect(attempt.headers['webhook-id']).toBe(JSON.parse(attempt.body).id);
      expect(new Webhook(allSecret, { format: 'raw' }).verify(attempt.body, attempt.headers as Record<string, string>)).toEqual(JSON.parse(attempt.body));
    }

    const [failedAttempt, ...rest] = all.received;
    expect(failedAttempt!.answered).toBe(500);
    const retry = rest.find((attempt) => JSON.parse(attempt.body).id === JSON.parse(failedAttempt!.body).id);
    expect(retry?.body).toBe(failedAttempt!.body);
    expect(retry?.answered).toBe(200);

    const failedEvent = JSON.parse(delivered(all, 'action.failed')[0]!.body);
    // The envelope of CONTRACT 9.2 (the sequence comes from the event recorder; any number here).
    expect(failedEvent).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'action.failed',
      created_at: expect.any(String),
      business: { slug: business.slug },
      conversation: { uuid: conversation },
      sequence: expect.any(Number),
      data: {
        action_group: { uuid: group._id },
        conversation: { uuid: conversation },
        action: { index: 0, type: 'assign_label', error: { code: 'TAG_NOT_FOUND', message: expect.stringContaining('No such tag') } },
      },
    });
    const finishedEvent = JSON.parse(delivered(all, 'action_group.finished')[0]!.body);
    expect(finishedEvent.data).toMatchObject({
      action_group: { uuid: group._id, status: 'failed', escalated: false, actions: [{ index: 0, status: 'failed' }, { index: 1, status: 'succeeded', error: null }] },
      conversation: { uuid: conversation },
    });
    expect(finishedOnly.received.map((attempt) => JSON.parse(attempt.body).type)).toEqual(['action_group.finished']);
    // Same event, same id, at both endpoints.
    expect(JSON.parse(finishedOnly.received[0]!.body).id).toBe(finishedEvent.id);

    // The receiver answered before the dispatcher recorded the outcome.
    const deliveries = () => storedCollection('webhook_deliveries').find({ business_id: business.businessId }).toArray();
    let records = await deliveries();
    for (let attempt = 0; attempt < 50 && records.some((record) => record['status'] !== 'succeeded'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      records = await deliveries();
    }
    expect(records.map((record) => [record['event_type'], record['status']]).sort()).toEqual([
      ['action.failed', 'succeeded'],
      ['action_group.finished', 'succeeded'],
      ['action_group.finished', 'succeeded'],
    ]);
    expect(records.map((record) => record['attempts']).sort()).toEqual([1, 1, 2]);
  });
});
