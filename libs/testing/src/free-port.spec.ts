import { createServer } from 'node:net';
import { freePort } from './free-port';

describe('freePort', () => {
  const worker = Number(process.env['JEST_WORKER_ID']);
  const first = 21_000 + worker * 500;

  it("hands out distinct ports from this worker's own slice, below the kernel's ephemeral range", async () => {
    const ports: number[] = [];
    for (let index = 0; index < 50; index += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThan(first + 500);
    }
  });

  it('skips a port of the slice that something already listens on', async () => {
    const taken: ReturnType<typeof createServer>[] = [];
    try {
      // Every port of the slice but one is taken: that one is the answer, wherever the cursor stands.
      const open = first + 250;
      for (let port = first; port < first + 500; port += 1) {
        if (port === open) continue;
        const server = createServer();
        await new Promise<void>((resolve) => {
          server.once('error', () => resolve());
          server.listen(port, '127.0.0.1', () => resolve());
        });
        taken.push(server);
      }
      expect(await freePort()).toBe(open);
    } finally {
      await Promise.all(taken.map((server) => new Promise((closed) => server.close(closed))));
    }
  });
});
