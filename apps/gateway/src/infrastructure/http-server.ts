import type { Express } from 'express';
import type { Server } from 'node:http';

export function listen(app: Express, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, (error?: Error) => (error ? reject(error) : resolve(server)));
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
