import { createServer } from 'node:net';

/**
 * Ports are handed out from a slice of their own to each jest worker (and one to the process without
 * a worker id: global setup, benchmarks), below the kernel's ephemeral range (32768 and up on
 * Linux). A port the kernel picked was free only for the moment of the check: a process of
 * another worker, started a moment later, could take the same port first, and the app the test
 * then starts answered as another worker's app (a gRPC health port answering as an actions-runner).
 */
const FIRST_PORT = 21_000;
const SLICE_SIZE = 500;
const SLICES = 12;

const slice = Number(process.env['JEST_WORKER_ID'] ?? 0);
let cursor = Math.floor(Math.random() * SLICE_SIZE);

/** A loopback port that was free a moment ago, and that no other worker of this run hands out. */
export async function freePort(): Promise<number> {
  if (!Number.isInteger(slice) || slice < 0 || slice >= SLICES) return listenOn(0);
  for (let tried = 0; tried < SLICE_SIZE; tried += 1) {
    const port = FIRST_PORT + slice * SLICE_SIZE + (cursor % SLICE_SIZE);
    cursor += 1;
    try {
      return await listenOn(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return listenOn(0);
}

/** Two consecutive free ports (a server with a second listener on the next port: Kafka's controller). */
export async function freePortPair(): Promise<number> {
  for (let tried = 0; tried < 20; tried += 1) {
    const port = await freePort();
    try {
      await listenOn(port + 1);
      return port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('no two consecutive free ports');
}

/** Listens on the port (0: one the kernel picks), closes, answers the port. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
