import * as grpc from '@grpc/grpc-js';
import { CatalogError } from '@cmsg/errors';
import { ConversationsServiceClient, type ConversationsServiceServer, ConversationsServiceService } from '../generated/cmsg/conversations/v1/conversations';
import { catalogErrorStatus } from './catalog-status';
import { type CallContext, RECONNECT_BACKOFF, createServiceClient } from './service-client';

interface Seen {
  method: string;
  requestId: unknown;
  authorization: unknown;
  deadline: grpc.Deadline;
}

/** An in-process ConversationsService whose methods answer as each test says. */
async function startServer(answers: Partial<Record<keyof ConversationsServiceServer, (call: grpc.ServerUnaryCall<unknown, unknown>) => Promise<unknown>>>, listenPort = 0) {
  const seen: Seen[] = [];
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(ConversationsServiceService)) {
    implementation[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      seen.push({ method, requestId: call.metadata.get('x-request-id')[0], authorization: call.metadata.get('authorization')[0], deadline: call.getDeadline() });
      const answer = answers[method as keyof ConversationsServiceServer];
      if (!answer) return callback({ code: grpc.status.UNIMPLEMENTED });
      answer(call).then(
        (response) => callback(null, response),
        (error: { code?: number }) => callback(error instanceof CatalogError ? catalogErrorStatus(error) : error),
      );
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  const server = new grpc.Server();
  server.addService(ConversationsServiceService, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${listenPort}`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, port, seen, stop: () => server.forceShutdown() };
}

const epochMs = (deadline: grpc.Deadline) => (deadline instanceof Date ? deadline.getTime() : deadline);

const CALLER = { business_id: 'b1', token_uuid: 't1' };
const CHANNELS = { items: [{ public_key: 'main', name: 'Main', phone: '1', status: 'connected', max_messages_per_second: 80, messaging_limit: 'unlimited' }] };

describe('createServiceClient', () => {
  let stopServer: (() => void) | undefined;
  let closeClient: (() => void) | undefined;
  afterEach(() => {
    closeClient?.();
    stopServer?.();
  });

  async function setUp(answers: Parameters<typeof startServer>[0], options: { token?: string; callContext?: () => CallContext; methodDeadlinesMs?: Record<string, number> } = {}) {
    const server = await startServer(answers);
    stopServer = server.stop;
    const client = createServiceClient(ConversationsServiceClient, {
      address: server.address,
      security: { insecure: true, ...(options.token ? { token: options.token } : {}) },
      deadlineMs: 30_000,
      ...(options.callContext ? { callContext: options.callContext } : {}),
      ...(options.methodDeadlinesMs ? { methodDeadlinesMs: options.methodDeadlinesMs } : {}),
    });
    closeClient = client.close;
    return { client, seen: server.seen, port: server.port };
  }

  it("reaches a service back from a 6 s outage within about a second of its return (with grpc-js's own backoff, 2.3 s here)", async () => {
    const answers = { listChannels: async () => CHANNELS };
    const { client, port } = await setUp(answers);
    await client.rpc.listChannels({ caller: CALLER });
    stopServer!();
    const outageEnd = Date.now() + 6_000;
    while (Date.now() < outageEnd) {
      await expect(client.rpc.listChannels({ caller: CALLER })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const restarted = await startServer(answers, port);
    stopServer = restarted.stop;
    const back = Date.now();
    let reachedAfterMs: number | undefined;
    while (reachedAfterMs === undefined && Date.now() - back < 10_000) {
      if (await client.rpc.listChannels({ caller: CALLER }).then(() => true, () => false)) reachedAfterMs = Date.now() - back;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(reachedAfterMs).toBeDefined();
    // The longest wait (1 s) plus its jitter (20 %) and the loop's step.
    expect(reachedAfterMs!).toBeLessThan(RECONNECT_BACKOFF['grpc.max_reconnect_backoff_ms'] * 1.2 + 300);
  }, 30_000);

  it('sends the request id of the calling work and the caller token', async () => {
    const { client, seen } = await setUp({ listChannels: async () => CHANNELS }, { token: 'a-token-of-sixteen+', callContext: () => ({ requestId: 'req-1' }) });
    await expect(client.rpc.listChannels({ caller: CALLER })).resolves.toEqual(CHANNELS);
    expect(seen[0]).toMatchObject({ requestId: 'req-1', authorization: 'Bearer a-token-of-sixteen+' });
  });

  it("caps the call's deadline at the caller's remaining one", async () => {
    const callerDeadline = Date.now() + 5_000;
    const { client, seen } = await setUp({ listChannels: async () => CHANNELS }, { callContext: () => ({ requestId: 'r', deadline: callerDeadline }) });
    await client.rpc.listChannels({ caller: CALLER });
    // grpc-js sends the remaining time; the server rebuilds an absolute deadline from it.
    expect(epochMs(seen[0]!.deadline)).toBeLessThanOrEqual(callerDeadline + 50);
    expect(epochMs(seen[0]!.deadline)).toBeGreaterThan(Date.now());
  });

  it('uses its own deadline when it is the shorter, per method where given', async () => {
    const { client, seen } = await setUp({ listChannels: async () => CHANNELS }, { methodDeadlinesMs: { listChannels: 2_000 }, callContext: () => ({ requestId: 'r', deadline: Date.now() + 60_000 }) });
    await client.rpc.listChannels({ caller: CALLER });
    expect(epochMs(seen[0]!.deadline)).toBeLessThanOrEqual(Date.now() + 2_000);
  });

  it('starts no call for work already cancelled or past its deadline', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    const context = { current: { requestId: 'r', signal: cancelled.signal } as CallContext };
    const { client, seen } = await setUp({ listChannels: async () => CHANNELS }, { callContext: () => context.current });
    await expect(client.rpc.listChannels({ caller: CALLER })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 499 });
    context.current = { requestId: 'r', deadline: Date.now() - 1 };
    await expect(client.rpc.listChannels({ caller: CALLER })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 504 });
    expect(seen).toEqual([]);
  });

  it('cancels the call in flight when the calling work is cancelled', async () => {
    const work = new AbortController();
    let serverCall: grpc.ServerUnaryCall<unknown, unknown> | undefined;
    const serverSawCancel = new Promise<void>((resolve) => {
      void setUp(
        {
          listChannels: (call) => {
            serverCall = call;
            call.on('cancelled', () => resolve());
            return new Promise(() => undefined);
          },
        },
        { callContext: () => ({ requestId: 'r', signal: work.signal }) },
      ).then(({ client }) => {
        const pending = client.rpc.listChannels({ caller: CALLER });
        pending.catch(() => undefined);
        const started = setInterval(() => {
          if (serverCall) {
            clearInterval(started);
            work.abort();
          }
        }, 5);
      });
    });
    await serverSawCancel;
    expect(serverCall?.cancelled).toBe(true);
  });

  it('turns a catalog error into the same code, message and HTTP status', async () => {
    const { client } = await setUp({ getConversationStatus: async () => Promise.reject(new CatalogError('CONVERSATION_NOT_FOUND', 'No such conversation here.')) });
    const failure = await client.rpc.getConversationStatus({ caller: CALLER, conversation: { uuid: 'x' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CatalogError);
    expect(failure).toMatchObject({ code: 'CONVERSATION_NOT_FOUND', message: 'No such conversation here.', httpStatus: 404 });
  });

  it('retries a read (NO_SIDE_EFFECTS) the server could not take, never a write', async () => {
    let reads = 0;
    let writes = 0;
    const unavailable = () => Object.assign(new Error('busy'), { code: grpc.status.UNAVAILABLE, details: 'busy' });
    const { client } = await setUp({
      listChannels: async () => {
        reads += 1;
        if (reads < 3) throw unavailable();
        return CHANNELS;
      },
      addNote: async () => {
        writes += 1;
        throw unavailable();
      },
    });
    await expect(client.rpc.listChannels({ caller: CALLER })).resolves.toEqual(CHANNELS);
    expect(reads).toBe(3);
    await expect(client.rpc.addNote({ caller: CALLER, conversation: { uuid: 'x' }, note: 'n', operation_id: '' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(writes).toBe(1);
  });

  it('spreads its calls over every address of its target (round_robin), not only the first', async () => {
    const replicas = [await startServer({ listChannels: async () => CHANNELS }), await startServer({ listChannels: async () => CHANNELS })];
    stopServer = () => replicas.forEach((replica) => replica.stop());
    const client = createServiceClient(ConversationsServiceClient, { address: `ipv4:${replicas.map((replica) => replica.address).join(',')}`, security: { insecure: true }, deadlineMs: 30_000 });
    closeClient = client.close;
    for (let call = 0; call < 20; call += 1) await client.rpc.listChannels({ caller: CALLER });
    // pick_first would send all 20 to the first; the calls before the second connection is up go to the first.
    for (const replica of replicas) expect(replica.seen.length).toBeGreaterThanOrEqual(5);
  });

  it('refuses to pick plaintext by default', () => {
    expect(() => createServiceClient(ConversationsServiceClient, { address: '127.0.0.1:1', security: {}, deadlineMs: 1_000 })).toThrow(/tls.*or insecure: true explicitly/);
  });
});
