import type { BroadcastEntity, BroadcastState, BusinessScope, RecipientState } from '@cmsg/dal';
import { BROADCAST_STATES, RECIPIENT_STATES } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { Broadcast, ListBroadcastRecipientsResponse, ListBroadcastsResponse } from '@cmsg/proto';
import type { BroadcastChannel, DefinitionPorts } from '../core/audience-ports';
import type { BroadcastStore } from '../core/broadcast-ports';
import { broadcastView, recipientView } from '../core/broadcast-view';

/** The signed list cursors of section 9 (ListCursorCodec in the apps). */
export interface CursorCodec {
  encode(endpoint: string, order: 'asc' | 'desc', position: { sortAt: number; id: string }, filters?: Record<string, string | number | boolean | undefined>): string;
  decode(cursor: string, endpoint: string, order: 'asc' | 'desc', filters?: Record<string, string | number | boolean | undefined>): { sortAt: number; id: string };
}

export interface ReadPorts {
  store: BroadcastStore;
  definitions: Pick<DefinitionPorts, 'channelById'>;
  cursors: CursorCodec;
}

export async function getBroadcast(ports: ReadPorts, scope: BusinessScope, id: string): Promise<Broadcast> {
  const broadcast = await ports.store.broadcasts.findById(scope, id);
  if (!broadcast) throw new CatalogError('BROADCAST_NOT_FOUND', `No broadcast ${id} in this business.`);
  return viewOf(ports, scope, broadcast);
}

export async function viewOf(ports: Pick<ReadPorts, 'definitions'>, scope: BusinessScope, broadcast: BroadcastEntity, channels = new Map<string, BroadcastChannel | null>()): Promise<Broadcast> {
  if (!channels.has(broadcast.channel_id)) channels.set(broadcast.channel_id, await ports.definitions.channelById(scope, broadcast.channel_id));
  const channel = channels.get(broadcast.channel_id);
  return broadcastView(broadcast, channel ?? { public_key: '', max_messages_per_second: 0 }, broadcast.current_per_second ?? 0);
}

/** GET /broadcasts: newest first, the status bound into the cursor. */
export async function listBroadcasts(ports: ReadPorts, scope: BusinessScope, request: { status?: string; cursor?: string; limit: number }): Promise<ListBroadcastsResponse> {
  const status = oneOf(request.status, BROADCAST_STATES, 'status') as BroadcastState | undefined;
  const filters = { status };
  const after = request.cursor ? ports.cursors.decode(request.cursor, 'broadcasts', 'desc', filters) : undefined;
  const rows = await ports.store.broadcasts.listPage(scope, { status, after: after && { created_at: new Date(after.sortAt), _id: after.id }, limit: request.limit + 1 });
  const page = rows.slice(0, request.limit);
  const channels = new Map<string, BroadcastChannel | null>();
  const items: Broadcast[] = [];
  for (const broadcast of page) items.push(await viewOf(ports, scope, broadcast, channels));
  const last = page[page.length - 1];
  const hasMore = rows.length > request.limit;
  return { items, has_more: hasMore, next_cursor: hasMore && last ? ports.cursors.encode('broadcasts', 'desc', { sortAt: last.created_at.getTime(), id: last._id }, filters) : '' };
}

/** GET /broadcasts/{uuid}/recipients: freeze order, optionally of one status. */
export async function listRecipients(ports: ReadPorts, scope: BusinessScope, request: { uuid: string; status?: string; cursor?: string; limit: number }): Promise<ListBroadcastRecipientsResponse> {
  const status = oneOf(request.status, RECIPIENT_STATES, 'status') as RecipientState | undefined;
  if (!(await ports.store.broadcasts.findById(scope, request.uuid))) throw new CatalogError('BROADCAST_NOT_FOUND', `No broadcast ${request.uuid} in this business.`);
  const filters = { broadcast: request.uuid, status };
  const after = request.cursor ? ports.cursors.decode(request.cursor, 'broadcast-recipients', 'asc', filters) : undefined;
  const rows = await ports.store.recipients.listPage(scope, request.uuid, { status, afterSeq: after?.sortAt, limit: request.limit + 1 });
  const page = rows.slice(0, request.limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > request.limit;
  return {
    items: page.map(recipientView),
    has_more: hasMore,
    next_cursor: hasMore && last ? ports.cursors.encode('broadcast-recipients', 'asc', { sortAt: last.seq, id: last._id }, filters) : '',
  };
}

function oneOf(value: string | undefined, allowed: readonly string[], field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!allowed.includes(value)) throw new CatalogError('INVALID_REQUEST', `${field}: one of ${allowed.join(', ')}.`);
  return value;
}
