import type { Express } from 'express';
import type { Server } from 'node:http';

/**
 * Idle keep-alive connections stay open longer than the load balancers and clients in front keep
 * theirs (60 s is the common default of ingresses and cloud load balancers). With Node's 5 s, a
 * client whose event loop was busy past 5 s, or a proxy that reuses an idle connection, writes its
 * next request to a socket the gateway is closing and gets "other side closed" (a 502 behind a
 * load balancer) for a request the gateway never saw.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function listen(app: Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, (error?: Error) => (error ? reject(error) : resolve(server)));
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Headers of a request on a kept-alive connection must be allowed longer than the idle wait.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  });
}

/**
 * Stops accepting connections and resolves once in-flight requests have finished. Keep-alive
 * connections are closed as soon as they fall idle, so a finished request frees its socket.
 */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idleSweep = setInterval(() => server.closeIdleConnections(), 250);
    server.close(() => {
      clearInterval(idleSweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
