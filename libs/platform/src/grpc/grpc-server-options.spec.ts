import * as grpc from '@grpc/grpc-js';
import { grpcServerOptions } from './grpc-server-options';
import { bindGrpcServer } from './grpc-server-lifecycle';

const identity = (bytes: Buffer) => bytes;
const ECHO: grpc.ServiceDefinition = {
  echo: { path: '/test.Echo/Echo', requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity },
};
const EchoClient = grpc.makeGenericClientConstructor(ECHO, 'Echo');

/** Calls an echo server with these options one after another for `forMs`: what answered, and the client connections (peers) the server saw. */
async function callFor(options: grpc.ServerOptions, forMs: number): Promise<{ answered: number; failed: number; peers: number }> {
  const peers = new Set<string>();
  const server = new grpc.Server(options);
  server.addService(ECHO, {
    echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      peers.add(call.getPeer());
      callback(null, call.request);
    },
  });
  const port = await bindGrpcServer(server, '127.0.0.1:0');
  const client = new EchoClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const { echo } = client as unknown as { echo: (request: Buffer, options: grpc.CallOptions, callback: grpc.requestCallback<Buffer>) => void };
  const call = (bytes: Buffer) => new Promise<void>((resolve, reject) => echo.call(client, bytes, { deadline: Date.now() + 2_000 }, (error) => (error ? reject(error) : resolve())));
  let answered = 0;
  let failed = 0;
  const end = Date.now() + forMs;
  try {
    while (Date.now() < end) {
      await call(Buffer.from('ping')).then(
        () => answered++,
        () => failed++,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.close();
    server.forceShutdown();
  }
  return { answered, failed, peers: peers.size };
}

describe('grpcServerOptions', () => {
  it('sets no option without a connection age', () => {
    expect(grpcServerOptions({ GRPC_MAX_CONNECTION_AGE_MS: 0, SHUTDOWN_GRACE_MS: 25_000 })).toEqual({});
  });

  it('closes each client connection after its age, the grace for its calls in flight, and the client goes on over a new one without a failed call', async () => {
    const aged = await callFor(grpcServerOptions({ GRPC_MAX_CONNECTION_AGE_MS: 300, SHUTDOWN_GRACE_MS: 1_000 }), 1_500);
    expect(aged.failed).toBe(0);
    expect(aged.answered).toBeGreaterThan(10);
    expect(aged.peers).toBeGreaterThanOrEqual(3);
    // The same calls without an age keep the one connection.
    const unaged = await callFor(grpcServerOptions({ GRPC_MAX_CONNECTION_AGE_MS: 0, SHUTDOWN_GRACE_MS: 1_000 }), 600);
    expect(unaged).toMatchObject({ failed: 0, peers: 1 });
  });
});
