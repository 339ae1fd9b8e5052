import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a webhook receiver got, with the time it arrived. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** The status answered; null while held (a receiver that never answers). */
  answered: number | null;
}

/** How to answer the nth request (0-based): a status, or `hang` (never answer; the sender times out). */
export type WebhookAnswer = (request: { index: number; body: string; headers: IncomingHttpHeaders }) => number | 'hang';

/**
 * A business's webhook receiver on loopback, as tests and benchmarks need one: records every request
 * and answers as told (200 by default). `onReceived` sees each request as it arrives.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server: Server | undefined;
  private readonly held = new Set<ServerResponse>();
  url = '';

  constructor(
    private answer: WebhookAnswer = () => 200,
    private readonly onReceived: (received: ReceivedWebhook) => void = () => undefined,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const decided = this.answer({ index: this.received.length, body, headers: request.headers });
        const entry: ReceivedWebhook = { path: request.url ?? '', headers: request.headers, body, receivedAt: Date.now(), answered: decided === 'hang' ? null : decided };
        this.received.push(entry);
        this.onReceived(entry);
        if (decided === 'hang') this.held.add(response);
        else response.writeHead(decided).end();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  answerWith(answer: WebhookAnswer): void {
    this.answer = answer;
  }

  /** The bodies answered with a 2xx, parsed, one per webhook-id (receivers drop duplicates by it). */
  delivered(): Map<string, { id: string; type: string; [field: string]: unknown }> {
    const byId = new Map<string, { id: string; type: string }>();
    for (const entry of this.received) {
      if (entry.answered !== null && entry.answered >= 200 && entry.answered < 300) byId.set(String(entry.headers['webhook-id']), JSON.parse(entry.body));
    }
    return byId;
  }

  async stop(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }
}
