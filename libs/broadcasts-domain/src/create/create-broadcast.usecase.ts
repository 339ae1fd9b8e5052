import { type BroadcastEntity, type BusinessScope, emptyBroadcastCounts } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import { randomUUID } from 'node:crypto';
import type { AudiencePorts, DefinitionPorts } from '../core/audience-ports';
import type { BroadcastClock, BroadcastStore } from '../core/broadcast-ports';
import { broadcastIdForOperation } from '../core/named-ids';
import type { BroadcastDefinitionInput } from './broadcast-definition';
import { validateDefinition } from './validate-definition';

export interface CreateBroadcastPorts {
  store: Pick<BroadcastStore, 'broadcasts'>;
  definitions: DefinitionPorts;
  audience: AudiencePorts;
  clock: BroadcastClock;
  newId?: () => string;
}

/**
 * POST /broadcasts (CONTRACT 10.4): validated whole, stored `scheduled` (send_at later) or
 * `preparing`, and due for the coordinator at once or at send_at. Nothing is frozen here: the
 * audience is frozen when the broadcast starts.
 *
 * With an `operationId` (the gateway's, from an Idempotency-Key) the broadcast's id is named by it:
 * the same operation again answers the broadcast it created, as it is now, without validating
 * again, so a retry after a lost answer never creates (and sends) a second broadcast.
 */
export async function createBroadcast(ports: CreateBroadcastPorts, scope: BusinessScope, input: BroadcastDefinitionInput, operationId?: string): Promise<BroadcastEntity> {
  const id = operationId ? broadcastIdForOperation(scope.businessId, operationId) : (ports.newId ?? randomUUID)();
  if (operationId) {
    const created = await ports.store.broadcasts.findById(scope, id);
    if (created) return created;
  }
  const valid = await validateDefinition(ports, scope, input);
  const now = ports.clock.now();
  const sendAt = valid.sendAt && valid.sendAt > now ? valid.sendAt : now;
  const broadcast: BroadcastEntity = {
    _id: id,
    business_id: scope.businessId,
    name: input.name,
    channel_id: valid.channel.id,
    template: { uuid: valid.template.uuid, name: valid.template.name, language: valid.template.language, category: valid.template.category },
    variables: input.variables,
    header: input.header,
    button_parameters: input.button_parameters,
    audience: valid.audience,
    send_at: sendAt,
    send_window: input.send_window ?? null,
    time_zone: valid.timeZone,
    max_per_second: input.max_per_second ?? null,
    status: sendAt > now ? 'scheduled' : 'preparing',
    pause_reason: null,
    created_at: now,
    started_at: null,
    finished_at: null,
    freeze: { after_contact_id: null, rows: 0, offset: 0, next_seq: 0 },
    due_at: sendAt,
    dispatch_epoch: 0,
    progress_at: null,
    counts_at: null,
    current_per_second: 0,
    counts: emptyBroadcastCounts(),
    skipped_by_reason: {},
    failed_by_code: {},
  };
  if (await ports.store.broadcasts.insertIfAbsent(broadcast)) return broadcast;
  // The same operation, run at the same time, created it first.
  const created = operationId ? await ports.store.broadcasts.findById(scope, id) : null;
  if (!created) throw new CatalogError('UPDATE_FAILED', `The broadcast ${id} could not be stored; retry.`);
  return created;
}
