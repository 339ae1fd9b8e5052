import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CatalogError } from '@cmsg/errors';
import { catalogErrorFor, CloudApiFailure, failureFromNetwork, failureFromResponse } from './cloud-api-failure';
import { buildMessageRequest } from './message-body';
import type { MessageContent } from './message-content';
import { sendFailureError } from './provider-outcome';
import { JsonOverHttp, type JsonCall } from './json-over-http';
import { type ContactAddress, resolveRecipient } from './recipient';
import { realSleeper, retryDelayMs, type Sleeper } from './send-retry';

export interface CloudApiClientConfig {
  /** CHAT_API_BASE_URL, the versioned Graph root, e.g. `https://graph.facebook.com/v21.0`. */
  baseUrl: string;
  /** Per call; for media downloads, the wait for headers and between two chunks. */
  timeoutMs?: number;
  /** Whether contacts without a phone may be messaged by their platform user id (BSUID). */
  bsuidSendEnabled?: boolean;
  /** Waits between the retries of a rate-limited send (send-retry.ts); real timers by default. */
  sleep?: Sleeper;
  /** The jitter's source, in [0, 1). */
  random?: () => number;
  /**
   * Whether 130429 / 131056 answers are retried here (send-retry.ts). False behind the send engine
   * (libs/send-engine), which retries them within the channel's shared budget and back-off.
   */
  retryRateLimits?: boolean;
}

/** The channel's Cloud API identity (stored per channel, CONTRACT section 8). */
export interface ChannelCredentials {
  phone_number_id: string;
  access_token: string;
}

export interface OutboundMessage {
  to: ContactAddress;
  content: MessageContent;
}

export interface SendMessageResult {
  /** The `wamid.` id; inbound status webhooks refer to it. */
  provider_message_id: string;
  /** The provider's normalised phone for a phone send. */
  wa_id?: string;
}

export interface MediaInfo {
  url: string;
  mime_type: string;
  file_size?: number;
  sha256?: string;
}

export interface MediaDownload {
  stream: Readable;
  mime_type?: string;
  content_length?: number;
}

export interface DownloadOptions {
  /** Refuse (FILE_TOO_LARGE) media larger than this, before or while reading it. */
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** A client for the chat platform's public Cloud API: outbound messages and inbound media. */
export class CloudApiClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly bsuidSendEnabled: boolean;
  private readonly sleep: Sleeper;
  private readonly random: () => number;
  private readonly retryRateLimits: boolean;
  private readonly http = new JsonOverHttp();

  constructor(config: CloudApiClientConfig) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.bsuidSendEnabled = config.bsuidSendEnabled ?? false;
    this.sleep = config.sleep ?? realSleeper;
    this.random = config.random ?? Math.random;
    this.retryRateLimits = config.retryRateLimits ?? true;
  }

  /**
   * Sends one message. PREPARE_FAILED / BSUID_SEND_DISABLED before any network call. A call
   * answered 130429 or 131056 is retried within its bounds (send-retry.ts). Any other failure, or
   * the last of those, is the provider outcome's catalog error (provider-outcome.ts: SEND_FAILED
   * unless the code maps), always with providerCode set (null without a provider code).
   */
  async sendMessage(channel: ChannelCredentials, message: OutboundMessage): Promise<SendMessageResult> {
    requireChannel(channel);
    const recipient = resolveRecipient(message.to, { bsuidSendEnabled: this.bsuidSendEnabled });
    const body = JSON.stringify(buildMessageRequest(recipient, message.content));
    const url = `${this.baseUrl}/${encodeURIComponent(channel.phone_number_id)}/messages`;
    const init: JsonCall = { method: 'POST', headers: { ...bearer(channel.access_token), 'content-type': 'application/json' }, body };
    let answer: unknown;
    for (let attempt = 1; answer === undefined; attempt += 1) {
      try {
        answer = await this.callJson(url, init);
      } catch (failure) {
        const delay = this.retryRateLimits ? retryDelayMs(failure, attempt, this.random()) : undefined;
        if (delay === undefined) throw sendFailureError(failure as CloudApiFailure);
        await this.sleep(delay);
      }
    }
    const id = (answer as { messages?: { id?: unknown }[] }).messages?.[0]?.id;
    if (typeof id !== 'string' || id === '') {
      throw sendFailureError(new CloudApiFailure('the answer carries no message id', { transient: false }));
    }
    const waId = (answer as { contacts?: { wa_id?: unknown }[] }).contacts?.[0]?.wa_id;
    return { provider_message_id: id, ...(typeof waId === 'string' ? { wa_id: waId } : {}) };
  }

  /** `GET /{media-id}`: where an inbound media can be downloaded (the URL lives about 5 minutes). */
  async getMediaUrl(mediaId: string, accessToken: string): Promise<MediaInfo> {
    const answer = await this.callJson(`${this.baseUrl}/${encodeURIComponent(mediaId)}`, {
      method: 'GET',
      headers: bearer(accessToken),
    }).catch((failure: CloudApiFailure) => {
      throw catalogErrorFor('FETCH_FAILED', `Looking up media ${mediaId}`, failure);
    });
    const info = answer as Partial<MediaInfo>;
    if (typeof info.url !== 'string' || typeof info.mime_type !== 'string') {
      throw catalogErrorFor('FETCH_FAILED', `Looking up media ${mediaId}`, new CloudApiFailure('the answer has no url or mime_type', { transient: false }));
    }
    return {
      url: info.url,
      mime_type: info.mime_type,
      ...(Number(info.file_size) > 0 ? { file_size: Number(info.file_size) } : {}),
      ...(typeof info.sha256 === 'string' ? { sha256: info.sha256 } : {}),
    };
  }

  /** Streams the media bytes from a URL given by getMediaUrl (the provider wants the bearer there too). */
  async downloadMedia(url: string, accessToken: string, options: DownloadOptions = {}): Promise<MediaDownload> {
    const controller = new AbortController();
    let idle = setTimeout(() => controller.abort(), this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, { headers: bearer(accessToken), signal: controller.signal });
    } catch (error) {
      clearTimeout(idle);
      throw catalogErrorFor('FETCH_FAILED', 'Downloading media', failureFromNetwork(error, this.timeoutMs));
    }
    if (!response.ok || !response.body) {
      clearTimeout(idle);
      const failure = failureFromResponse(response.status, await response.json().catch(() => undefined));
      throw catalogErrorFor('FETCH_FAILED', 'Downloading media', failure);
    }
    const contentLength = Number(response.headers.get('content-length')) || undefined;
    const { maxBytes } = options;
    if (maxBytes !== undefined && contentLength !== undefined && contentLength > maxBytes) {
      clearTimeout(idle);
      controller.abort();
      throw new CatalogError('FILE_TOO_LARGE', `The media is ${contentLength} bytes, the limit is ${maxBytes}.`);
    }
    let received = 0;
    const timeoutMs = this.timeoutMs;
    // Re-arms the idle timer per chunk so a stalled download fails instead of hanging forever.
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        clearTimeout(idle);
        received += chunk.length;
        if (maxBytes !== undefined && received > maxBytes) {
          controller.abort();
          callback(new CatalogError('FILE_TOO_LARGE', `The media exceeds the limit of ${maxBytes} bytes.`));
          return;
        }
        idle = setTimeout(() => controller.abort(), timeoutMs);
        callback(null, chunk);
      },
      flush(callback) {
        clearTimeout(idle);
        callback();
      },
    });
    const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    source.on('error', (error) => {
      clearTimeout(idle);
      guard.destroy(catalogErrorFor('FETCH_FAILED', 'Downloading media', failureFromNetwork(error, timeoutMs)));
    });
    guard.on('close', () => {
      clearTimeout(idle);
      source.destroy();
    });
    source.pipe(guard);
    return {
      stream: guard,
      ...(response.headers.get('content-type') ? { mime_type: response.headers.get('content-type') ?? undefined } : {}),
      ...(contentLength !== undefined ? { content_length: contentLength } : {}),
    };
  }

  /** One JSON call; rejects with a CloudApiFailure (never a raw network error). */
  private async callJson(url: string, init: JsonCall): Promise<unknown> {
    let answer: { status: number; text: string };
    try {
      answer = await this.http.call(url, init, this.timeoutMs);
    } catch (error) {
      throw failureFromNetwork(error, this.timeoutMs);
    }
    const json = parseJson(answer.text);
    if (answer.status < 200 || answer.status > 299) throw failureFromResponse(answer.status, json);
    if (json === undefined) throw new CloudApiFailure(`HTTP ${answer.status} with a body that is not JSON`, { status: answer.status, transient: false });
    return json;
  }
}

function requireChannel(channel: ChannelCredentials): void {
  if (!channel.phone_number_id || !channel.access_token) {
    throw new CatalogError('CHANNEL_NOT_CONFIGURED', 'The channel has no Cloud API phone_number_id or access token.');
  }
}

function bearer(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
