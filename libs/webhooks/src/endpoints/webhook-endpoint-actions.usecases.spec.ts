import { businessScope } from '@cmsg/dal';
import { type EndpointPortsOptions, inMemoryEndpointPorts } from '../testing/in-memory-endpoint-ports';
import { endpointEntity, InMemoryWebhookStore } from '../testing/in-memory-webhook-store';
import { SECRET_ROTATION_OVERLAP_MS, pingWebhookEndpoint, rotateWebhookSecret } from './webhook-endpoint-actions.usecases';

const mine = businessScope('b1');
const theirs = businessScope('b2');
const ORIGINAL = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const HOUR = 3_600_000;

describe('webhook endpoint actions', () => {
  let store: InMemoryWebhookStore;
  let now: Date;
  const ports = (options: Partial<EndpointPortsOptions> = {}) => inMemoryEndpointPorts(store, { now: () => now, businesses: { b1: 'acme', b2: 'globex' }, ...options });
  const later = (ms: number) => new Date(now.getTime() + ms);

  beforeEach(() => {
    store = new InMemoryWebhookStore();
    now = new Date('2026-03-01T10:00:00Z');
    store.endpoints.push(
      endpointEntity({ _id: 'e1', events: ['note.created'], secrets: [{ secret: ORIGINAL, expires_at: null }] }),
      endpointEntity({ _id: 'e2', events: ['*'] }),
      endpointEntity({ _id: 'x1', business_id: 'b2', events: ['*'], secrets: [{ secret: 'whsec_theirs', expires_at: null }] }),
    );
  });

  describe('rotateWebhookSecret', () => {
    it('puts a new secret first and keeps the previous one signing for 24 h', async () => {
      const { secret } = await rotateWebhookSecret(ports(), mine, 'e1');
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).not.toBe(ORIGINAL);
      expect(SECRET_ROTATION_OVERLAP_MS).toBe(24 * HOUR);
      expect(store.endpoint('e1')).toMatchObject({
        secrets: [
          { secret, expires_at: null },
          { secret: ORIGINAL, expires_at: later(24 * HOUR) },
        ],
        updated_at: now,
      });
    });

    it('keeps every live secret until 24 h from now at the latest, an earlier end as it is, and drops expired ones', async () => {
      store.endpoint('e1')!.secrets = [
        { secret: 'current', expires_at: null },
        { secret: 'ending-soon', expires_at: later(2 * HOUR) },
        { secret: 'ending-late', expires_at: later(30 * HOUR) },
        { secret: 'expired', expires_at: now },
      ];
      const { secret } = await rotateWebhookSecret(ports(), mine, 'e1');
      expect(store.endpoint('e1')!.secrets).toEqual([
        { secret, expires_at: null },
        { secret: 'current', expires_at: later(24 * HOUR) },
        { secret: 'ending-soon', expires_at: later(2 * HOUR) },
        { secret: 'ending-late', expires_at: later(24 * HOUR) },
      ]);
    });

    it('rotating twice leaves three secrets signing, the newest without an end', async () => {
      const first = await rotateWebhookSecret(ports(), mine, 'e1');
      now = later(HOUR);
      const second = await rotateWebhookSecret(ports(), mine, 'e1');
      expect(store.endpoint('e1')!.secrets).toEqual([
        { secret: second.secret, expires_at: null },
        { secret: first.secret, expires_at: later(24 * HOUR) },
        { secret: ORIGINAL, expires_at: new Date('2026-03-02T10:00:00Z') },
      ]);
    });

    it('reads again after losing to a concurrent rotation, keeping the secret that rotation made', async () => {
      let rounds = 0;
      const racing = ports({
        endpoints: {
          replaceSecrets: async (...args) => {
            rounds += 1;
            if (rounds === 1) store.endpoint('e1')!.secrets = [{ secret: 'concurrent', expires_at: null }, { secret: ORIGINAL, expires_at: later(24 * HOUR) }];
            return store.endpointRepository.replaceSecrets(...args);
          },
        },
      });
      const { secret } = await rotateWebhookSecret(racing, mine, 'e1');
      expect(rounds).toBe(2);
      expect(store.endpoint('e1')!.secrets).toEqual([
        { secret, expires_at: null },
        { secret: 'concurrent', expires_at: later(24 * HOUR) },
        { secret: ORIGINAL, expires_at: later(24 * HOUR) },
      ]);
    });

    it('gives up with UPDATE_FAILED after losing five rounds in a row, leaving the secrets as the others wrote them', async () => {
      let rounds = 0;
      const racing = ports({
        endpoints: {
          replaceSecrets: async (...args) => {
            rounds += 1;
            store.endpoint('e1')!.secrets = [{ secret: `concurrent-${rounds}`, expires_at: null }];
            return store.endpointRepository.replaceSecrets(...args);
          },
        },
      });
      await expect(rotateWebhookSecret(racing, mine, 'e1')).rejects.toMatchObject({ code: 'UPDATE_FAILED' });
      expect(rounds).toBe(5);
      expect(store.endpoint('e1')!.secrets).toEqual([{ secret: 'concurrent-5', expires_at: null }]);
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown uuid and for another business's endpoint, whose secret stays", async () => {
      await expect(rotateWebhookSecret(ports(), mine, 'nope')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(rotateWebhookSecret(ports(), mine, 'x1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      expect(store.endpoint('x1')!.secrets).toEqual([{ secret: 'whsec_theirs', expires_at: null }]);
    });
  });

  describe('pingWebhookEndpoint', () => {
    it('queues a ping to this endpoint only, whatever it subscribes to, and answers it pending and due now', async () => {
      const answer = await pingWebhookEndpoint(ports(), mine, 'e1');
      expect(answer).toEqual({
        event_id: expect.any(String),
        type: 'ping',
        status: 'pending',
        attempts: 0,
        last_attempt_at: null,
        last_status_code: null,
        next_attempt_at: '2026-03-01T10:00:00.000Z',
      });
      expect(store.deliveries).toHaveLength(1);
      const [delivery] = store.deliveries;
      expect(delivery).toMatchObject({ _id: `${answer.event_id}:e1`, business_id: 'b1', endpoint_id: 'e1', event_id: answer.event_id, event_type: 'ping', status: 'pending', due_at: now });
      expect(JSON.parse(delivery!.body)).toEqual({
        id: answer.event_id,
        type: 'ping',
        created_at: '2026-03-01T10:00:00.000Z',
        business: { slug: 'acme' },
        conversation: null,
        sequence: 0,
        data: {},
      });
    });

    it('is a new event each time: two pings queue two deliveries', async () => {
      const first = await pingWebhookEndpoint(ports(), mine, 'e2');
      const second = await pingWebhookEndpoint(ports(), mine, 'e2');
      expect(second.event_id).not.toBe(first.event_id);
      expect(store.deliveries.map((delivery) => delivery.event_id)).toEqual([first.event_id, second.event_id]);
    });

    it("answers WEBHOOK_ENDPOINT_NOT_FOUND for an unknown uuid and for another business's endpoint, queuing nothing", async () => {
      await expect(pingWebhookEndpoint(ports(), mine, 'nope')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(pingWebhookEndpoint(ports(), mine, 'x1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      await expect(pingWebhookEndpoint(ports(), theirs, 'e1')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      expect(store.deliveries).toEqual([]);
    });

    it('answers FETCH_FAILED when the business of the request is not found, queuing nothing', async () => {
      await expect(pingWebhookEndpoint(ports({ businesses: { b2: 'globex' } }), mine, 'e1')).rejects.toMatchObject({ code: 'FETCH_FAILED' });
      expect(store.deliveries).toEqual([]);
    });
  });
});
