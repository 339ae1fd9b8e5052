import {
  type BroadcastDefinitionInput,
  BROADCAST_TRANSITIONS,
  type BroadcastTransition,
  type CreateBroadcastPorts,
  type ReadPorts,
  type StatePorts,
  changeBroadcastState,
  createBroadcast,
  getBroadcast,
  listBroadcasts,
  listRecipients,
  previewBroadcast,
  viewOf,
} from '@cmsg/broadcasts-domain';
import { type BusinessScope, businessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { AsyncUnaryImplementation } from '@cmsg/platform/grpc';
import type { BroadcastsServiceServer, Caller, CreateBroadcastRequest } from '@cmsg/proto';

export interface BroadcastHandlerPorts {
  create: CreateBroadcastPorts;
  read: ReadPorts;
  state: StatePorts;
  /** Looks at a broadcast created or changed now, instead of at the coordinator's next poll. */
  wake(): void;
}

/** Transport adapter of the broadcasts endpoints (CONTRACT 10.4): proto request -> use case -> proto answer. */
export function broadcastsHandlers(ports: BroadcastHandlerPorts): AsyncUnaryImplementation<BroadcastsServiceServer> {
  return {
    createBroadcast: async (request) => {
      const scope = scopeOf(request.caller);
      const broadcast = await createBroadcast(ports.create, scope, definitionOf(request), request.operation_id || undefined);
      ports.wake();
      return viewOf(ports.read, scope, broadcast);
    },
    previewBroadcast: (request) => previewBroadcast(ports.create, scopeOf(request.caller), definitionOf(request)),
    getBroadcast: (request) => getBroadcast(ports.read, scopeOf(request.caller), request.uuid),
    listBroadcasts: (request) =>
      listBroadcasts(ports.read, scopeOf(request.caller), { status: request.status, cursor: request.cursor, limit: pageSizeOf(request.limit) }),
    changeBroadcastState: async (request) => {
      const scope = scopeOf(request.caller);
      const changed = await changeBroadcastState(ports.state, scope, request.uuid, transitionOf(request.transition));
      ports.wake();
      return viewOf(ports.read, scope, changed);
    },
    listBroadcastRecipients: (request) =>
      listRecipients(ports.read, scopeOf(request.caller), { uuid: request.uuid, status: request.status, cursor: request.cursor, limit: pageSizeOf(request.limit) }),
  };
}

function definitionOf(request: CreateBroadcastRequest): BroadcastDefinitionInput {
  const audience = request.audience;
  const source = audience?.filter
    ? ({ kind: 'filter', filter: audience.filter } as const)
    : audience?.contacts
      ? ({ kind: 'contacts', contact_ids: audience.contacts.uuids } as const)
      : audience?.file_uuid
        ? ({ kind: 'file', file_uuid: audience.file_uuid } as const)
        : undefined;
  if (!source) throw new CatalogError('INVALID_REQUEST', 'audience: one of filter, contacts or file_uuid is required.');
  if (!request.template) throw new CatalogError('INVALID_REQUEST', 'template is required.');
  return {
    name: request.name,
    channel: request.channel,
    template: { uuid: request.template.uuid, name: request.template.name, language: request.template.language },
    variables: request.variables.map((variable) => ({ index: variable.index, value: variable.value })),
    header: request.header ? { ...request.header } : null,
    button_parameters: request.button_parameters.map((parameter) => ({ index: parameter.index, sub_type: parameter.sub_type, value: parameter.value })),
    audience: source,
    ...(request.send_at ? { send_at: request.send_at } : {}),
    ...(request.max_per_second ? { max_per_second: request.max_per_second } : {}),
    ...(request.send_window ? { send_window: { from: request.send_window.from, to: request.send_window.to } } : {}),
  };
}

function transitionOf(transition: string): BroadcastTransition {
  if (!(BROADCAST_TRANSITIONS as readonly string[]).includes(transition)) throw new CatalogError('INVALID_REQUEST', `transition: one of ${BROADCAST_TRANSITIONS.join(', ')}.`);
  return transition as BroadcastTransition;
}

function scopeOf(caller: Caller | undefined): BusinessScope {
  if (!caller?.business_id) throw new CatalogError('INVALID_REQUEST', 'caller.business_id is required.');
  return businessScope(caller.business_id);
}

function pageSizeOf(limit: number): number {
  return limit > 0 ? Math.min(limit, 100) : 50;
}
