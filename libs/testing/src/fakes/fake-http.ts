import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Largest request body a fake accepts (audio uploads included). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export type RequestHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void> | void;

/** A loopback node:http server that buffers each body, then hands it to one handler. */
export class FakeHttpServer {
  private server: Server | undefined;
  private port = 0;
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly handler: RequestHandler,
    private readonly host = '127.0.0.1',
  ) {}

  async start(port = 0): Promise<string> {
    if (this.server) return this.origin;
    const server = createServer((req, res) => {
      readBody(req)
        .then((body) => this.handler(req, res, body))
        .catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 500, { error: { message: `fake server error: ${String(error)}` } });
          else res.destroy();
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.origin;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get origin(): string {
    if (!this.server) throw new Error('The fake server is not started');
    return `http://${this.host}:${this.port}`;
  }

  /** Waits ms, unless the client goes away first (then resolves false) or the server stops. */
  delay(ms: number, req: IncomingMessage): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        req.socket.off('close', onClose);
        resolve(true);
      }, ms);
      const onClose = () => {
        clearTimeout(timer);
        this.pending.delete(timer);
        resolve(false);
      };
      this.pending.add(timer);
      req.socket.once('close', onClose);
    });
  }
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/.exec(req.headers.authorization ?? '');
  return match?.[1];
}
