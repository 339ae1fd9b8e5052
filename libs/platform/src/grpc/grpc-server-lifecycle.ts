import * as grpc from '@grpc/grpc-js';

export function bindGrpcServer(server: grpc.Server, address: string, credentials = grpc.ServerCredentials.createInsecure()): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials, (error, port) => (error ? reject(error) : resolve(port)));
  });
}

/** Drains in-flight calls; forces after the timeout. */
export function shutdownGrpcServer(server: grpc.Server, timeoutMs = 10000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, timeoutMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** `cmsg.conversations.v1.ConversationsService` from a generated service definition. */
export function serviceNameOf(definition: grpc.ServiceDefinition): string {
  const firstPath = Object.values(definition)[0]?.path;
  if (!firstPath) throw new Error('a gRPC service definition without methods');
  return firstPath.slice(1, firstPath.lastIndexOf('/'));
}
