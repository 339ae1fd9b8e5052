/**
 * What a bare server process gets on its IPC channel. `express`: the use cases behind a bare
 * Express handler (the bare path). `grpc-service` and `grpc-forward` are the two halves of the bare
 * hop: the status read behind a bare grpc-js server, and a bare Express handler that forwards the
 * request to it, each a process of its own (the forward also serves the hop behind the gateway's
 * Redis rate limit, under `/limited`). `action-service`: the least MongoDB work of an action on
 * a conversation behind a bare grpc-js server (the action floor).
 */
export type BareServerConfig =
  | { role: 'express'; mongodbUri: string; businessId: string; signingSecret: string }
  | { role: 'grpc-service'; mongodbUri: string; businessId: string }
  | { role: 'grpc-forward'; serviceAddress: string; businessId: string; redisUrl: string }
  | { role: 'action-service'; mongodbUri: string };

/** Tells the parent the port, then waits for its SIGTERM. */
export async function untilStopped(port: number): Promise<void> {
  process.send!({ port });
  await new Promise((stopped) => process.once('SIGTERM', stopped));
}
