import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX, handleControlRequest, sinceOf } from './fake-control';
import { bearerToken, FakeHttpServer, parseJson, sendJson } from './fake-http';
import { type FakeRuleBase, RuleBook } from './fake-rules';
import { parseMultipart } from './multipart';

export type AiEndpoint = 'chat.completions' | 'audio.transcriptions' | 'models' | 'other';

export interface AiRecord {
  seq: number;
  at: string;
  endpoint: AiEndpoint;
  method: string;
  path: string;
  authorization?: string;
  model?: string;
  /** Chat: the JSON body. Transcription: the form fields plus `file: { filename, content_type, size }`. */
  body?: unknown;
  status: number;
  /** The text the fake answered with. */
  reply?: string;
}

export interface AiRecordFilter {
  endpoint?: AiEndpoint;
  model?: string;
  since?: number;
}

/** OpenAI error object fields a rule may set. */
export interface AiErrorSpec {
  message?: string;
  type?: string;
  code?: string;
}

export interface AiRule extends FakeRuleBase {
  /** `contains`: a substring of the request's message texts (chat) or of the file name (transcription). */
  match?: { endpoint?: Exclude<AiEndpoint, 'models' | 'other'>; model?: string; contains?: string };
  error?: AiErrorSpec;
  /** Answer with this text instead of the deterministic one (`''` for an empty answer). */
  reply?: string;
}

export interface FakeAiServerOptions {
  host?: string;
  /** Only this API key is accepted when set (401 invalid_api_key otherwise). */
  apiKey?: string;
}

type ChatMessage = { role?: unknown; content?: unknown };

/**
 * A local OpenAI-compatible API: chat completions with a deterministic reply
 * (`AI(<model>): re: <last user text>`), usage derived from text lengths (4 characters a token),
 * audio transcriptions (`transcribed: <file name>`), failure and latency rules, /_fake/ control.
 */
export class FakeAiServer {
  readonly rules = new RuleBook<AiRule>();
  private readonly http: FakeHttpServer;
  private readonly apiKey: string | undefined;
  private records: AiRecord[] = [];
  private seq = 0;

  constructor(options: FakeAiServerOptions = {}) {
    this.apiKey = options.apiKey;
    this.http = new FakeHttpServer((req, res, body) => this.handle(req, res, body), options.host);
  }

  /** Starts listening and returns the base URL, e.g. http://127.0.0.1:4568/v1. */
  async start(port = 0): Promise<string> {
    await this.http.start(port);
    return this.baseUrl;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /** What AI_BASE_URL should be. */
  get baseUrl(): string {
    return `${this.http.origin}/v1`;
  }

  get origin(): string {
    return this.http.origin;
  }

  requests(filter: AiRecordFilter = {}): AiRecord[] {
    return this.records
      .filter(
        (record) =>
          (filter.endpoint === undefined || record.endpoint === filter.endpoint) &&
          (filter.model === undefined || record.model === filter.model) &&
          (filter.since === undefined || record.seq > filter.since),
      )
      .map((record) => ({ ...record }));
  }

  addRule(rule: AiRule): string {
    return this.rules.add(rule);
  }

  removeRule(id: string): boolean {
    return this.rules.remove(id);
  }

  clearRules(): void {
    this.rules.clear();
  }

  reset(): void {
    this.records = [];
    this.rules.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      if (!handleControlRequest(this.controlTarget, req, res, body, url)) sendJson(res, 404, { error: `no control route ${req.method} ${url.pathname}` });
      return;
    }
    const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
    if (route === 'POST /v1/chat/completions') return this.chatCompletion(req, res, body);
    if (route === 'POST /v1/audio/transcriptions') return this.transcription(req, res, body);
    if (route === 'GET /v1/models') {
      const record = this.record(req, 'models', {});
      if (!this.authorized(req, res, record)) return;
      record.status = 200;
      return sendJson(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] });
    }
    const record = this.record(req, 'other', {});
    this.answerError(res, record, 404, { message: `Invalid URL (${req.method} ${url.pathname})`, type: 'invalid_request_error' });
  }

  private async chatCompletion(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const json = parseJson(raw) as { model?: unknown; messages?: unknown; stream?: unknown } | undefined;
    const model = typeof json?.model === 'string' ? json.model : undefined;
    const record = this.record(req, 'chat.completions', { body: json ?? raw.toString('utf8'), ...(model ? { model } : {}) });
    if (!this.authorized(req, res, record)) return;
    if (!model) return this.answerError(res, record, 400, { message: 'you must provide a model parameter', code: 'missing_required_parameter' });
    if (!Array.isArray(json?.messages) || json.messages.length === 0) {
      return this.answerError(res, record, 400, { message: "'messages' must contain at least one message", code: 'invalid_value' });
    }
    if (json.stream === true) return this.answerError(res, record, 400, { message: 'The fake AI server does not stream.' });
    const messages = json.messages as ChatMessage[];
    const allText = messages.map((message) => textOf(message.content)).join('\n');

    const rule = this.rules.take((candidate) => ruleMatches(candidate, 'chat.completions', model, allText));
    if (rule && !(await this.applyRule(rule, req, res, record))) return;

    const reply = rule?.reply ?? `AI(${model}): re: ${lastUserText(messages)}`;
    const promptTokens = Math.max(1, Math.ceil(allText.length / 4));
    const completionTokens = Math.ceil(reply.length / 4);
    record.status = 200;
    record.reply = reply;
    sendJson(res, 200, {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  private async transcription(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const parts = parseMultipart(raw, req.headers['content-type']);
    const fields = Object.fromEntries((parts ?? []).filter((part) => part.filename === undefined).map((part) => [part.name, part.data.toString('utf8')]));
    const file = parts?.find((part) => part.name === 'file' && part.filename !== undefined);
    const model = fields['model'];
    const record = this.record(req, 'audio.transcriptions', {
      ...(model ? { model } : {}),
      body: { ...fields, ...(file ? { file: { filename: file.filename, content_type: file.contentType, size: file.data.length } } : {}) },
    });
    if (!this.authorized(req, res, record)) return;
    if (!parts) return this.answerError(res, record, 400, { message: 'Expected multipart/form-data.' });
    if (!file) return this.answerError(res, record, 400, { message: "Missing required parameter: 'file'.", code: 'missing_required_parameter' });
    if (!model) return this.answerError(res, record, 400, { message: "Missing required parameter: 'model'.", code: 'missing_required_parameter' });

    const rule = this.rules.take((candidate) => ruleMatches(candidate, 'audio.transcriptions', model, file.filename ?? ''));
    if (rule && !(await this.applyRule(rule, req, res, record))) return;

    const text = rule?.reply ?? `transcribed: ${file.filename}`;
    record.status = 200;
    record.reply = text;
    if (fields['response_format'] === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
      return;
    }
    sendJson(res, 200, { text });
  }

  /** Delay, drop or fail as the rule says; true when the normal answer should follow. */
  private async applyRule(rule: AiRule, req: IncomingMessage, res: ServerResponse, record: AiRecord): Promise<boolean> {
    if (!(await this.http.delay(rule.delay_ms ?? 0, req))) return false;
    if (rule.disconnect) {
      req.socket.destroy();
      return false;
    }
    if (rule.status !== undefined && rule.status >= 300) {
      this.answerError(res, record, rule.status, rule.error ?? {});
      return false;
    }
    return true;
  }

  private authorized(req: IncomingMessage, res: ServerResponse, record: AiRecord): boolean {
    const token = bearerToken(req);
    if (token && (this.apiKey === undefined || token === this.apiKey)) return true;
    this.answerError(res, record, 401, { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' });
    return false;
  }

  private record(req: IncomingMessage, endpoint: AiEndpoint, fields: Partial<AiRecord>): AiRecord {
    const record: AiRecord = {
      seq: ++this.seq,
      at: new Date().toISOString(),
      endpoint,
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
      status: 0,
      ...fields,
    };
    this.records.push(record);
    return record;
  }

  private answerError(res: ServerResponse, record: AiRecord, status: number, spec: AiErrorSpec): void {
    record.status = status;
    const defaults = defaultError(status);
    sendJson(res, status, {
      error: { message: spec.message ?? defaults.message, type: spec.type ?? defaults.type, param: null, code: spec.code ?? defaults.code },
    });
  }

  private get controlTarget() {
    return {
      rules: this.rules,
      reset: () => this.reset(),
      requestsMatching: (query: URLSearchParams) =>
        this.requests({
          ...(query.get('endpoint') ? { endpoint: query.get('endpoint') as AiEndpoint } : {}),
          ...(query.get('model') ? { model: query.get('model') ?? '' } : {}),
          since: sinceOf(query),
        }),
    };
  }
}

function defaultError(status: number): { message: string; type: string; code: string | null } {
  if (status === 401) return { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { message: 'Rate limit reached for requests.', type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { message: 'The server had an error while processing your request.', type: 'server_error', code: null };
  return { message: 'Invalid request.', type: 'invalid_request_error', code: null };
}

function ruleMatches(rule: AiRule, endpoint: AiEndpoint, model: string, text: string): boolean {
  const match = rule.match ?? {};
  if (match.endpoint !== undefined && match.endpoint !== endpoint) return false;
  if (match.model !== undefined && match.model !== model) return false;
  if (match.contains !== undefined && !text.includes(match.contains)) return false;
  return true;
}

/** The text of a message content: a string, or the text parts of a content array (images counted). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts = content as { type?: unknown; text?: unknown }[];
  const text = parts.filter((part) => part.type === 'text' && typeof part.text === 'string').map((part) => part.text as string);
  const images = parts.filter((part) => part.type === 'image_url').length;
  return [...text, ...(images > 0 ? [`[${images} image${images > 1 ? 's' : ''}]`] : [])].join(' ');
}

function lastUserText(messages: ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'user') return textOf(messages[index]?.content);
  }
  return '(no user message)';
}
