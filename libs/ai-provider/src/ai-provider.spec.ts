import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogError } from '@cmsg/errors';
import { AiProvider } from './ai-provider';
import { chatMessagesFor } from './timeline-messages';

/**
 * Edge cases a well-behaved server never produces. The protocol itself is tested against
 * FakeAiServer in libs/testing/src/fakes/clients-against-fakes.spec.ts.
 */
let server: Server;
let baseUrl: string;
let answer: (res: ServerResponse) => void;
let hits = 0;

const completion = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'served-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  ...extra,
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function catalogErrorOf(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return error as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

const provider = () => new AiProvider({ baseUrl, apiKey: 'k' });
const request = { model: 'm', instructions: 'Be brief.', timeline: [{ role: 'customer' as const, text: 'Hi', at: new Date() }], budgetMs: 2000 };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits += 1;
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits = 0;
});

describe('chatMessagesFor', () => {
  it('maps the timeline in order and skips blank lines', () => {
    expect(
      chatMessagesFor('You are Ana.', [
        { role: 'customer', text: 'Hello', at: '2026-01-01T00:00:00Z' },
        { role: 'note', text: 'Refund approved', at: '2026-01-01T00:01:00Z' },
        { role: 'business', text: ' ', at: '2026-01-01T00:02:00Z' },
        { role: 'business', text: 'Done!', at: '2026-01-01T00:03:00Z' },
      ]),
    ).toEqual([
      { role: 'system', content: 'You are Ana.' },
      { role: 'user', content: 'Hello' },
      { role: 'system', content: 'Internal note: Refund approved' },
      { role: 'assistant', content: 'Done!' },
    ]);
  });
});

describe('AiProvider.complete edge cases', () => {
  it('estimates usage when the server reports none, so wallets are still charged', async () => {
    answer = (res) => json(res, 200, completion({ content: 'Hello there, how can I help?' }));
    const result = await provider().complete(request);
    expect(result.text).toBe('Hello there, how can I help?');
    expect(result.model).toBe('served-model');
    expect(result.usage.completion_tokens).toBe(Math.ceil('Hello there, how can I help?'.length / 4));
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.total_tokens).toBe(result.usage.prompt_tokens + result.usage.completion_tokens);
  });

  it('reports the provider usage when there is one', async () => {
    answer = (res) => json(res, 200, completion({ content: 'ok' }, { usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } }));
    expect((await provider().complete(request)).usage).toEqual({ prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 });
  });

  it('is AI_EXECUTION_FAILED for a refusal or no choices', async () => {
    answer = (res) => json(res, 200, completion({ content: null, refusal: 'I cannot help with that.' }));
    expect((await catalogErrorOf(provider().complete(request))).message).toContain('refused (I cannot help with that.)');

    answer = (res) => json(res, 200, { ...completion({}), choices: [] });
    expect((await catalogErrorOf(provider().complete(request))).code).toBe('AI_EXECUTION_FAILED');
  });

  it('is AI_EXECUTION_FAILED for a body that is not a completion', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
    expect((await catalogErrorOf(provider().complete(request))).code).toBe('AI_EXECUTION_FAILED');
  });

  it('stops when the caller cancels, and says so', async () => {
    answer = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await catalogErrorOf(provider().complete({ ...request, signal: controller.signal }));
    expect(error.code).toBe('AI_EXECUTION_FAILED');
    expect(error.message).toContain('cancelled');
    expect(hits).toBe(1);
  });

  it('refuses to start without budget left', async () => {
    const error = await catalogErrorOf(provider().complete({ ...request, budgetMs: 0 }));
    expect(error.message).toContain('no time budget left');
    expect(hits).toBe(0);
  });

  it('is AI_EXECUTION_FAILED when the provider is unreachable', async () => {
    const unreachable = new AiProvider({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' });
    const error = await catalogErrorOf(unreachable.complete(request));
    expect(error.code).toBe('AI_EXECUTION_FAILED');
    expect(error.message).toContain('could not reach the AI provider');
  });

  it('needs an API key at construction (fail fast at boot)', () => {
    expect(() => new AiProvider({ baseUrl, apiKey: '' })).toThrow('AI_API_KEY');
  });
});
