import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX, handleControlRequest, sinceOf } from './fake-control';
import { bearerToken, FakeHttpServer, parseJson, sendJson } from './fake-http';
import { type FakeRuleBase, RuleBook } from './fake-rules';
import { CLOUD_API_ERROR_SAMPLES, CLOUD_API_ERROR_STATUS } from './cloud-api-error-samples';
import { validateMessageRequest } from './cloud-api-request-validation';
import { CloudApiThroughput, handleThroughputControl, type ThroughputOption, type ThroughputScope, type ThroughputSettings } from './cloud-api-throughput';

export type CloudApiRequestKind = 'message' | 'media_info' | 'media_download' | 'other';

/** One request the fake received, as tests inspect it. */
export interface CloudApiRecord {
  /** Increasing per fake; pass the last seen one as `since` to get only newer requests. */
  seq: number;
  /** ISO time of arrival. */
  at: string;
  /** Arrival as epoch ms, with sub-millisecond precision (the `clock` option when given). */
  at_ms: number;
  kind: CloudApiRequestKind;
  method: string;
  path: string;
  phone_number_id?: string;
  /** The Authorization header as sent. */
  authorization?: string;
  /** The JSON body (the raw text when it was not JSON). */
  body?: unknown;
  /** `to` (phone) or `recipient` (BSUID) of a message request. */
  to?: string;
  /** The HTTP status the fake answered; 0 while pending or when it dropped the connection. */
  status: number;
  /** The Graph error code of an error answer, e.g. 130429 for a send above the throughput. */
  error_code?: number;
  /** The `wamid.` id given to an accepted message. */
  provider_message_id?: string;
}

export interface CloudApiRecordFilter {
  kind?: CloudApiRequestKind;
  phone_number_id?: string;
  /** A phone (compared as digits) or a BSUID. */
  to?: string;
  since?: number;
}

/** The Graph error object fields a rule may set; `details` goes to `error_data.details`. */
export interface CloudApiErrorSpec {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  details?: string;
}

/**
 * A failure or latency rule for message sends, global or for one recipient / channel / type. An
 * `error.code` without `status` fails the send with that code (HTTP 400, the real body: message,
 * type, code, error_data.details, fbtrace_id), e.g. `{ match: { to }, error: { code: 131026 }, times: 2 }`.
 */
export interface CloudApiRule extends FakeRuleBase {
  match?: { to?: string; phone_number_id?: string; type?: string };
  error?: CloudApiErrorSpec;
}

export interface RegisteredMedia {
  id: string;
  /** The download URL `GET /{media_id}` hands out (bearer token required, like the real one). */
  url: string;
  mime_type: string;
  sha256: string;
  file_size: number;
}

export interface FakeCloudApiOptions {
  /** Path version the base URL carries (any `/vX.Y/` is accepted). */
  apiVersion?: string;
  /** When set for a phone_number_id, only that exact token is accepted for it (401 code 190 otherwise). */
  accessTokens?: Record<string, string>;
  host?: string;
  /**
   * Accepted message sends per phone_number_id in any sliding 1,000 ms, for every number or per
   * number (a `'*'` key: the others); a send above it is answered 130429. Unlimited when absent.
   */
  throughputPerSecond?: ThroughputOption;
  /**
   * Epoch ms of an arrival (`at_ms`, `at`, the throughput window); by default the wall clock at
   * sub-millisecond precision. A test steps its own to count throughput exactly on a busy machine.
   */
  clock?: () => number;
}

const VERSION_SEGMENT = /^v\d+\.\d+$/;
const DOWNLOAD_PATH = '/whatsapp_business/attachments/';

/**
 * A local stand-in for the chat platform's Cloud API (the public WhatsApp Cloud API protocol):
 * message sends, media lookup and download, failure injection, and /_fake/ control endpoints.
 */
export class FakeCloudApi {
  readonly rules = new RuleBook<CloudApiRule>();
  private readonly http: FakeHttpServer;
  private readonly apiVersion: string;
  private readonly accessTokens: Record<string, string>;
  private readonly throughput: CloudApiThroughput;
  private readonly clock: () => number;
  private records: CloudApiRecord[] = [];
  private media = new Map<string, { bytes: Buffer; info: Omit<RegisteredMedia, 'url'> }>();
  private seq = 0;

  constructor(options: FakeCloudApiOptions = {}) {
    this.apiVersion = options.apiVersion ?? 'v21.0';
    this.accessTokens = { ...(options.accessTokens ?? {}) };
    this.throughput = new CloudApiThroughput(options.throughputPerSecond);
    this.clock = options.clock ?? (() => performance.timeOrigin + performance.now());
    this.http = new FakeHttpServer((req, res, body) => this.handle(req, res, body), options.host);
  }

  /** Starts listening (port 0: any free port) and returns the base URL, e.g. http://127.0.0.1:4567/v21.0. */
  async start(port = 0): Promise<string> {
    await this.http.start(port);
    return this.baseUrl;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /** What CHAT_API_BASE_URL should be. */
  get baseUrl(): string {
    return `${this.http.origin}/${this.apiVersion}`;
  }

  get origin(): string {
    return this.http.origin;
  }

  requests(filter: CloudApiRecordFilter = {}): CloudApiRecord[] {
    return this.records.filter((record) => recordMatches(record, filter)).map((record) => ({ ...record }));
  }

  /** Message sends the fake accepted (what "reached the customer"). */
  sentMessages(filter: Omit<CloudApiRecordFilter, 'kind'> = {}): CloudApiRecord[] {
    return this.requests({ ...filter, kind: 'message' }).filter((record) => record.status === 200);
  }

  /** Resolves once `count` accepted sends match, for work that happens in the background. */
  async waitForMessages(count: number, filter: Omit<CloudApiRecordFilter, 'kind'> = {}, timeoutMs = 10_000): Promise<CloudApiRecord[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const sent = this.sentMessages(filter);
      if (sent.length >= count) return sent;
      if (Date.now() > deadline) throw new Error(`FakeCloudApi: ${sent.length} of ${count} messages after ${timeoutMs} ms (${JSON.stringify(filter)})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  addRule(rule: CloudApiRule): string {
    return this.rules.add(rule);
  }

  removeRule(id: string): boolean {
    return this.rules.remove(id);
  }

  clearRules(): void {
    this.rules.clear();
  }

  /** Makes media downloadable as an inbound message's media id would be. */
  registerMedia(input: { bytes: Buffer; mime_type: string; id?: string }): RegisteredMedia {
    const id = input.id ?? String(10n ** 15n + BigInt(randomBytes(6).readUIntBE(0, 6)));
    const info: Omit<RegisteredMedia, 'url'> = {
      id,
      mime_type: input.mime_type,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      file_size: input.bytes.length,
    };
    this.media.set(id, { bytes: input.bytes, info });
    return { ...info, url: this.downloadUrl(id) };
  }

  /** Where the fake serves a media's bytes; needs a started fake. */
  downloadUrl(mediaId: string): string {
    return `${this.http.origin}${DOWNLOAD_PATH}?mid=${encodeURIComponent(mediaId)}`;
  }

  setAccessToken(phoneNumberId: string, token: string): void {
    this.accessTokens[phoneNumberId] = token;
  }

  /**
   * Sets the throughput of one number, or with `'*'` of every number without its own; null removes
   * that limit (a number falls back to `'*'`, `'*'` to unlimited). Applies to sends arriving from now.
   * A fake shared by parallel tests is best limited per number, each test on its own number.
   */
  setThroughput(phoneNumberId: ThroughputScope, perSecond: number | null): void {
    this.throughput.set(phoneNumberId, perSecond);
  }

  throughputSettings(): ThroughputSettings {
    return this.throughput.settings();
  }

  /** Forgets requests, rules and media, and restores the throughput given at construction. */
  reset(): void {
    this.records = [];
    this.rules.clear();
    this.media.clear();
    this.throughput.reset();
  }

  private async handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      if (this.handleFakeMedia(req, res, body, url)) return;
      if (handleThroughputControl(this.throughput, req, res, body, url)) return;
      if (handleControlRequest(this.controlTarget, req, res, body, url)) return;
      sendJson(res, 404, { error: `no control route ${req.method} ${url.pathname}` });
      return;
    }
    if (url.pathname === DOWNLOAD_PATH && req.method === 'GET') return this.download(req, res, url);
    const segments = url.pathname.split('/').filter(Boolean);
    if (segments.length === 3 && VERSION_SEGMENT.test(segments[0]!) && segments[2] === 'messages' && req.method === 'POST') {
      return this.sendMessage(req, res, body, decodeURIComponent(segments[1]!));
    }
    if (segments.length === 2 && VERSION_SEGMENT.test(segments[0]!) && req.method === 'GET') {
      return this.mediaInfo(req, res, decodeURIComponent(segments[1]!));
    }
    const record = this.record(req, 'other', {});
    this.answerError(res, record, 400, { message: `Unknown path components: ${url.pathname}`, code: 2500 });
  }

  private async sendMessage(req: IncomingMessage, res: ServerResponse, raw: Buffer, phoneNumberId: string): Promise<void> {
    const json = parseJson(raw);
    const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined;
    const to = typeof body?.['to'] === 'string' ? body['to'] : typeof body?.['recipient'] === 'string' ? body['recipient'] : undefined;
    const record = this.record(req, 'message', {
      phone_number_id: phoneNumberId,
      body: json ?? raw.toString('utf8'),
      ...(to !== undefined ? { to } : {}),
    });
    if (!this.authorized(req, res, record, phoneNumberId)) return;
    if (!body) return this.answerError(res, record, 400, { message: '(#100) Invalid parameter', code: 100, details: 'The request body is not a JSON object.' });
    // Before the rules, so a throttled send leaves a rule's `times` for its retry.
    if (!this.throughput.admit(phoneNumberId, record.at_ms)) return this.answerError(res, record, CLOUD_API_ERROR_STATUS, { code: 130429 });
    await this.answerMessage(req, res, record, body, phoneNumberId, to);
    if (record.status !== 200) this.throughput.withdraw(phoneNumberId, record.at_ms);
  }

  /** Rules, validation, then the accepted answer (status 200 on the record). */
  private async answerMessage(
    req: IncomingMessage,
    res: ServerResponse,
    record: CloudApiRecord,
    body: Record<string, unknown>,
    phoneNumberId: string,
    to: string | undefined,
  ): Promise<void> {
    const type = typeof body['type'] === 'string' ? body['type'] : 'text';
    const rule = this.rules.take((candidate) => ruleMatches(candidate, phoneNumberId, to, type));
    if (rule) {
      if (!(await this.http.delay(rule.delay_ms ?? 0, req))) return;
      if (rule.disconnect) {
        req.socket.destroy();
        return;
      }
      if (rule.status !== undefined && rule.status >= 300) return this.answerError(res, record, rule.status, rule.error ?? {});
      if (rule.status === undefined && rule.error?.code !== undefined) return this.answerError(res, record, CLOUD_API_ERROR_STATUS, rule.error);
    }

    const invalid = validateMessageRequest(body);
    if (invalid) return this.answerError(res, record, 400, { message: '(#100) Invalid parameter', code: 100, details: invalid });

    const messageId = `wamid.${randomBytes(24).toString('base64url')}`;
    record.provider_message_id = messageId;
    record.status = 200;
    const contact =
      typeof body['to'] === 'string'
        ? { input: body['to'], wa_id: body['to'].replace(/\D/g, '') }
        : { input: String(body['recipient']), user_id: String(body['recipient']) };
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [contact],
      messages: [{ id: messageId, ...(type === 'template' ? { message_status: 'accepted' } : {}) }],
    });
  }

  private mediaInfo(req: IncomingMessage, res: ServerResponse, mediaId: string): void {
    const record = this.record(req, 'media_info', {});
    if (!this.authorized(req, res, record)) return;
    const media = this.media.get(mediaId);
    if (!media) {
      return this.answerError(res, record, 400, {
        message: `Unsupported get request. Object with ID '${mediaId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        code: 100,
        error_subcode: 33,
      });
    }
    record.status = 200;
    sendJson(res, 200, { messaging_product: 'whatsapp', url: this.downloadUrl(mediaId), ...media.info });
  }

  private download(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const record = this.record(req, 'media_download', {});
    if (!this.authorized(req, res, record)) return;
    const media = this.media.get(url.searchParams.get('mid') ?? '');
    if (!media) {
      record.status = 404;
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    record.status = 200;
    res.writeHead(200, { 'content-type': media.info.mime_type, 'content-length': media.bytes.length });
    res.end(media.bytes);
  }

  /** POST /_fake/media `{ mime_type, data_base64, id? }` -> 201 RegisteredMedia. */
  private handleFakeMedia(req: IncomingMessage, res: ServerResponse, body: Buffer, url: URL): boolean {
    if (req.method !== 'POST' || url.pathname !== `${CONTROL_PREFIX}media`) return false;
    const input = parseJson(body) as { mime_type?: unknown; data_base64?: unknown; id?: unknown } | undefined;
    if (typeof input?.mime_type !== 'string' || typeof input.data_base64 !== 'string') {
      sendJson(res, 400, { error: 'expected { mime_type, data_base64, id? }' });
      return true;
    }
    const registered = this.registerMedia({
      bytes: Buffer.from(input.data_base64, 'base64'),
      mime_type: input.mime_type,
      ...(typeof input.id === 'string' ? { id: input.id } : {}),
    });
    sendJson(res, 201, registered);
    return true;
  }

  private authorized(req: IncomingMessage, res: ServerResponse, record: CloudApiRecord, phoneNumberId?: string): boolean {
    const token = bearerToken(req);
    if (!token) {
      this.answerError(res, record, 401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
      return false;
    }
    const expected = phoneNumberId !== undefined ? this.accessTokens[phoneNumberId] : undefined;
    if (expected !== undefined && expected !== token) {
      this.answerError(res, record, 401, { message: 'Error validating access token: The session is invalid.', code: 190, error_subcode: 460 });
      return false;
    }
    return true;
  }

  private record(req: IncomingMessage, kind: CloudApiRequestKind, fields: Partial<CloudApiRecord>): CloudApiRecord {
    const atMs = this.clock();
    const record: CloudApiRecord = {
      seq: ++this.seq,
      at: new Date(atMs).toISOString(),
      at_ms: atMs,
      kind,
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
      status: 0,
      ...fields,
    };
    this.records.push(record);
    return record;
  }

  private answerError(res: ServerResponse, record: CloudApiRecord, status: number, spec: CloudApiErrorSpec): void {
    record.status = status;
    const defaults = defaultError(status);
    const code = spec.code ?? defaults.code;
    record.error_code = code;
    const sample = CLOUD_API_ERROR_SAMPLES[code];
    const details = spec.details ?? sample?.details;
    sendJson(res, status, {
      error: {
        message: spec.message ?? (sample ? `(#${code}) ${sample.title}` : defaults.message),
        type: spec.type ?? 'OAuthException',
        code,
        ...(spec.error_subcode !== undefined ? { error_subcode: spec.error_subcode } : {}),
        ...(details !== undefined ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    });
  }

  private get controlTarget() {
    return {
      rules: this.rules,
      reset: () => this.reset(),
      requestsMatching: (query: URLSearchParams) =>
        this.requests({
          ...(query.get('kind') ? { kind: query.get('kind') as CloudApiRequestKind } : {}),
          ...(query.get('phone_number_id') ? { phone_number_id: query.get('phone_number_id') ?? '' } : {}),
          ...(query.get('to') ? { to: query.get('to') ?? '' } : {}),
          since: sinceOf(query),
        }),
    };
  }
}

function defaultError(status: number): { message: string; code: number } {
  if (status === 401) return { message: 'Invalid OAuth access token', code: 190 };
  if (status === 429) return { message: '(#130429) Rate limit hit', code: 130429 };
  if (status === 503) return { message: 'Service temporarily unavailable', code: 2 };
  if (status >= 500) return { message: 'An unknown error has occurred.', code: 1 };
  return { message: '(#100) Invalid parameter', code: 100 };
}

/** Phones compare as digits (`+1 555` = `1555`); anything else (a BSUID) exactly. */
function sameAddress(a: string, b: string): boolean {
  const isPhone = (value: string) => /^\+?[\d\s().-]+$/.test(value);
  return isPhone(a) && isPhone(b) ? a.replace(/\D/g, '') === b.replace(/\D/g, '') : a === b;
}

function ruleMatches(rule: CloudApiRule, phoneNumberId: string, to: string | undefined, type: string): boolean {
  const match = rule.match ?? {};
  if (match.phone_number_id !== undefined && match.phone_number_id !== phoneNumberId) return false;
  if (match.type !== undefined && match.type !== type) return false;
  if (match.to !== undefined && (to === undefined || !sameAddress(match.to, to))) return false;
  return true;
}

function recordMatches(record: CloudApiRecord, filter: CloudApiRecordFilter): boolean {
  if (filter.kind !== undefined && record.kind !== filter.kind) return false;
  if (filter.phone_number_id !== undefined && record.phone_number_id !== filter.phone_number_id) return false;
  if (filter.to !== undefined && (record.to === undefined || !sameAddress(filter.to, record.to))) return false;
  if (filter.since !== undefined && record.seq <= filter.since) return false;
  return true;
}
