import { CatalogError } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import { type AsyncUnaryImplementation, adaptUnaryService, bindGrpcServer } from '@cmsg/platform/grpc';
import { type Broadcast, type BroadcastsServiceServer, BroadcastsServiceService } from '@cmsg/proto';
import { Server } from '@grpc/grpc-js';

type Implementation = AsyncUnaryImplementation<BroadcastsServiceServer>;
type Method = keyof Implementation;

export interface RecordedBroadcastsCall {
  method: Method;
  request: unknown;
}

export const KNOWN_BROADCAST_UUID = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const NO_RECIPIENTS = { total: 0, pending: 0, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped: 0, unknown: 0 };

/** A broadcast as the conversations service answers it, every field set. */
export function runningBroadcast(): Broadcast {
  return {
    uuid: KNOWN_BROADCAST_UUID,
    name: 'Gold plan renewal',
    channel: 'main',
    template: { uuid: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', name: 'plan_renewal', language: 'es_MX', category: 'marketing' },
    status: 'running',
    pause_reason: undefined,
    send_at: '2026-03-01T15:00:00.000Z',
    started_at: '2026-03-01T15:00:00.120Z',
    finished_at: undefined,
    counts: { total: 10, pending: 4, sent: 2, delivered: 1, read: 0, replied: 0, failed: 1, skipped: 2, unknown: 0 },
    skipped_by_reason: { opted_out: 1, duplicate: 1 },
    failed_by_code: { RECIPIENT_UNDELIVERABLE: 1 },
    rate: { max_per_second: 40, current_per_second: 12.5 },
    send_window: undefined,
    created_at: '2026-02-28T10:00:00.000Z',
  };
}

/**
 * A test double of the BroadcastsService on its own in-process grpc-js server: the known broadcast,
 * BROADCAST_NOT_FOUND for any other, every call recorded; `overrides` replace one method in a test.
 */
export class FakeBroadcastsService {
  readonly calls: RecordedBroadcastsCall[] = [];
  readonly overrides: Partial<Implementation> = {};
  private server: Server | undefined;

  /** As started: no calls, no overrides. */
  reset(): void {
    this.calls.length = 0;
    for (const method of Object.keys(this.overrides) as Method[]) delete this.overrides[method];
  }

  callsOf(method: Method): RecordedBroadcastsCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  async start(logger: Logger): Promise<string> {
    this.server = new Server();
    this.server.addService(BroadcastsServiceService, adaptUnaryService<BroadcastsServiceServer>(this.recording(this.defaults()), logger));
    const port = await bindGrpcServer(this.server, '127.0.0.1:0');
    return `127.0.0.1:${port}`;
  }

  stop(): void {
    this.server?.forceShutdown();
  }

  private recording(defaults: Implementation): Implementation {
    const recorded = {} as Record<string, (request: unknown) => Promise<unknown>>;
    for (const method of Object.keys(defaults) as Method[]) {
      recorded[method] = async (request: unknown) => {
        this.calls.push({ method, request });
        const handler = (this.overrides[method] ?? defaults[method]) as (request: unknown) => Promise<unknown>;
        return handler(request);
      };
    }
    return recorded as unknown as Implementation;
  }

  private defaults(): Implementation {
    const known = (uuid: string) => {
      if (uuid !== KNOWN_BROADCAST_UUID) throw new CatalogError('BROADCAST_NOT_FOUND');
      return runningBroadcast();
    };
    return {
      createBroadcast: async ({ name }) => ({ ...runningBroadcast(), name, status: 'scheduled', started_at: undefined, counts: NO_RECIPIENTS, skipped_by_reason: {}, failed_by_code: {} }),
      previewBroadcast: async () => ({ total: 10, skipped_by_reason: { opted_out: 1 }, messaging_limit_remaining: undefined, estimated_seconds: 1 }),
      getBroadcast: async ({ uuid }) => known(uuid),
      listBroadcasts: async () => ({ items: [], has_more: false, next_cursor: '' }),
      changeBroadcastState: async ({ uuid }) => known(uuid),
      listBroadcastRecipients: async ({ uuid }) => {
        known(uuid);
        return { items: [], has_more: false, next_cursor: '' };
      },
    };
  }
}
