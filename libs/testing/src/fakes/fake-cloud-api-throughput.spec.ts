import { maxInAnyWindow } from './arrival-windows';
import { FakeCloudApi } from './fake-cloud-api';
import { FakeCloudApiRemote } from './fake-remote-control';

/** Bursts of concurrent connections can take a while on a loaded machine. */
const BURST_TIMEOUT_MS = 20_000;

interface Answer {
  status: number;
  body: { messages?: { id: string }[]; error?: Record<string, unknown> };
}

async function send(fake: FakeCloudApi, phoneNumberId: string): Promise<Answer> {
  const response = await fetch(`${fake.baseUrl}/${phoneNumberId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer EAAG-test-token' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to: '15550100', type: 'text', text: { body: 'hi' } }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** `count` sends fired at once. */
function burst(fake: FakeCloudApi, count: number, phoneNumberId: string): Promise<Answer[]> {
  return Promise.all(Array.from({ length: count }, () => send(fake, phoneNumberId)));
}

const outcome = (answers: Answer[]) => ({
  accepted: answers.filter((answer) => answer.status === 200).length,
  throttled: answers.filter((answer) => answer.body.error?.['code'] === 130429).length,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const nowMs = () => performance.timeOrigin + performance.now();

describe('FakeCloudApi throughput, on a clock the test steps', () => {
  let now = Date.UTC(2026, 0, 5, 9);
  const fake = new FakeCloudApi({ throughputPerSecond: { 'pnid-20': 20 }, clock: () => now });

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it(
    'accepts 20 of 60 sends fired at once and answers the other 40 with the real 130429 body',
    async () => {
      const answers = await burst(fake, 60, 'pnid-20');
      expect(outcome(answers)).toEqual({ accepted: 20, throttled: 40 });
      for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
        expect(answer).toEqual({
          status: 400,
          body: {
            error: {
              message: '(#130429) Rate limit hit',
              type: 'OAuthException',
              code: 130429,
              error_data: { messaging_product: 'whatsapp', details: 'Cloud API message throughput has been reached.' },
              fbtrace_id: expect.any(String),
            },
          },
        });
      }
      const records = fake.requests({ kind: 'message', phone_number_id: 'pnid-20' });
      expect(records.map((record) => record.status).sort()).toEqual([...Array<number>(20).fill(200), ...Array<number>(40).fill(400)]);
      expect(records.filter((record) => record.status === 400).every((record) => record.error_code === 130429)).toBe(true);
      expect(fake.sentMessages({ phone_number_id: 'pnid-20' })).toHaveLength(20);
    },
    BURST_TIMEOUT_MS,
  );

  it(
    'accepts again a second after the accepted sends, never more than the limit in a window',
    async () => {
      expect(outcome(await burst(fake, 25, 'pnid-20'))).toEqual({ accepted: 20, throttled: 5 });
      now += 999;
      expect((await send(fake, 'pnid-20')).status).toBe(400);
      now += 1;
      expect(outcome(await burst(fake, 21, 'pnid-20'))).toEqual({ accepted: 20, throttled: 1 });
      const sent = fake.sentMessages({ phone_number_id: 'pnid-20' });
      expect(sent).toHaveLength(40);
      expect(maxInAnyWindow(sent.map((record) => record.at_ms))).toBe(20);
    },
    BURST_TIMEOUT_MS,
  );

  it('slides the window: a place frees a second after the send that held it', async () => {
    fake.setThroughput('pnid-slide', 2);
    expect((await send(fake, 'pnid-slide')).status).toBe(200);
    now += 400;
    expect((await send(fake, 'pnid-slide')).status).toBe(200);
    expect((await send(fake, 'pnid-slide')).status).toBe(400);
    now += 600;
    expect((await send(fake, 'pnid-slide')).status).toBe(200);
    expect((await send(fake, 'pnid-slide')).status).toBe(400);
    now += 400;
    expect((await send(fake, 'pnid-slide')).status).toBe(200);
  });

  it(
    'limits each number on its own, unlimited when no limit applies',
    async () => {
      fake.setThroughput('pnid-5', 5);
      const [limited, other, unlimited] = await Promise.all([burst(fake, 30, 'pnid-20'), burst(fake, 30, 'pnid-5'), burst(fake, 30, 'pnid-free')]);
      expect(outcome(limited!)).toEqual({ accepted: 20, throttled: 10 });
      expect(outcome(other!)).toEqual({ accepted: 5, throttled: 25 });
      expect(outcome(unlimited!)).toEqual({ accepted: 30, throttled: 0 });
    },
    BURST_TIMEOUT_MS,
  );

  it("applies '*' to numbers without a limit of their own, and null removes a limit", async () => {
    fake.setThroughput('*', 3);
    expect(outcome(await burst(fake, 5, 'pnid-any'))).toEqual({ accepted: 3, throttled: 2 });
    expect(outcome(await burst(fake, 25, 'pnid-20'))).toEqual({ accepted: 20, throttled: 5 });
    fake.setThroughput('pnid-20', null);
    expect((await send(fake, 'pnid-20')).status).toBe(400);
    fake.setThroughput('*', null);
    expect(outcome(await burst(fake, 10, 'pnid-any'))).toEqual({ accepted: 10, throttled: 0 });
    expect(fake.throughputSettings()).toEqual({ default: null, numbers: {} });
  });

  it('counts only accepted sends, and a throttled send leaves a rule untouched', async () => {
    fake.setThroughput('pnid-rules', 5);
    fake.addRule({ match: { phone_number_id: 'pnid-rules' }, error: { code: 131048 }, times: 5 });
    for (let call = 0; call < 5; call += 1) {
      expect((await send(fake, 'pnid-rules')).body.error).toMatchObject({ code: 131048, message: '(#131048) Spam rate limit hit' });
    }
    expect(outcome(await burst(fake, 8, 'pnid-rules'))).toEqual({ accepted: 5, throttled: 3 });

    fake.setThroughput('pnid-rules', 0);
    fake.addRule({ match: { phone_number_id: 'pnid-rules' }, error: { code: 131056 }, times: 1 });
    expect((await send(fake, 'pnid-rules')).body.error).toMatchObject({ code: 130429 });
    expect(fake.rules.list()).toEqual([expect.objectContaining({ times: 1 })]);
    fake.setThroughput('pnid-rules', null);
    expect((await send(fake, 'pnid-rules')).body.error).toMatchObject({ code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' });
    expect((await send(fake, 'pnid-rules')).status).toBe(200);
  });

  it('is set, read and reset through the control endpoint', async () => {
    const remote = new FakeCloudApiRemote(fake.baseUrl);
    expect(await remote.throughputSettings()).toEqual({ default: null, numbers: { 'pnid-20': 20 } });
    expect(await remote.setThroughput('pnid-remote', 3)).toEqual({ default: null, numbers: { 'pnid-20': 20, 'pnid-remote': 3 } });
    expect(outcome(await burst(fake, 5, 'pnid-remote'))).toEqual({ accepted: 3, throttled: 2 });
    expect(await remote.setThroughput('*', 1)).toEqual({ default: 1, numbers: { 'pnid-20': 20, 'pnid-remote': 3 } });
    expect(outcome(await burst(fake, 3, 'pnid-other'))).toEqual({ accepted: 1, throttled: 2 });

    const put = (body: unknown) => fetch(`${fake.origin}/_fake/throughput`, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ phone_number_id: 'pnid-remote', per_second: null })).status).toBe(200);
    expect(fake.throughputSettings()).toEqual({ default: 1, numbers: { 'pnid-20': 20 } });
    for (const bad of [{}, { per_second: -1 }, { per_second: 1.5 }, { per_second: '3' }, { phone_number_id: 7, per_second: 3 }]) {
      expect((await put(bad)).status).toBe(400);
    }
    expect((await fetch(`${fake.origin}/_fake/throughput`, { method: 'DELETE' })).status).toBe(405);

    await remote.reset();
    expect(fake.throughputSettings()).toEqual({ default: null, numbers: { 'pnid-20': 20 } });
  });

  it('takes one limit for every number as an option and refuses a bad one', () => {
    expect(new FakeCloudApi({ throughputPerSecond: 2 }).throughputSettings()).toEqual({ default: 2, numbers: {} });
    expect(() => new FakeCloudApi({ throughputPerSecond: { a: -1 } })).toThrow(RangeError);
    expect(() => fake.setThroughput('*', Number.NaN)).toThrow(RangeError);
  });
});

describe('FakeCloudApi throughput, on the wall clock', () => {
  const fake = new FakeCloudApi({ throughputPerSecond: 20 });

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('records each arrival in epoch ms, in arrival order and matching `at`', async () => {
    // The fake stamps with the monotonic clock's epoch ms (nowMs), which drifts from Date.now()
    // over a process's life (55 ms in one loaded run): the bounds are read on the same clock.
    const before = nowMs();
    await burst(fake, 5, 'pnid-arrivals');
    const records = fake.requests({ phone_number_id: 'pnid-arrivals' });
    expect(records).toHaveLength(5);
    for (const [index, record] of records.entries()) {
      expect(record.at_ms).toBeGreaterThanOrEqual(before - 50);
      expect(record.at_ms).toBeLessThanOrEqual(nowMs() + 50);
      expect(Date.parse(record.at)).toBe(Math.floor(record.at_ms));
      if (index > 0) expect(record.at_ms).toBeGreaterThanOrEqual(records[index - 1]!.at_ms);
    }
  });

  it(
    'never accepts more than the limit in a real second, and accepts again after it',
    async () => {
      const answers = await burst(fake, 30, 'pnid-wall');
      // However slowly a busy machine lets the burst arrive, no window holds more than 20, and a send
      // is refused only when the second before it held 20 (a burst spread past a second by a loaded
      // machine may see no refusal at all).
      const { accepted, throttled } = outcome(answers);
      expect(accepted).toBeGreaterThanOrEqual(20);
      expect(accepted + throttled).toBe(30);
      const sent = () => fake.sentMessages({ phone_number_id: 'pnid-wall' }).map((record) => record.at_ms);
      const most = maxInAnyWindow(sent());
      expect(most).toBeLessThanOrEqual(20);
      expect({ throttled, most: throttled > 0 ? most : 20 }).toEqual({ throttled, most: 20 });
      await sleep(Math.max(...sent()) + 1_020 - nowMs());
      expect((await send(fake, 'pnid-wall')).status).toBe(200);
      expect(maxInAnyWindow(sent())).toBeLessThanOrEqual(20);
    },
    BURST_TIMEOUT_MS,
  );
});
