import {
  type ActionGroupEntity,
  type ActionGroupStore,
  type ActionResultUpdate,
  type BusinessScope,
  type GroupFinish,
  type GroupStatus,
  type IndexedActionResult,
  type LastActionResult,
  isFinalActionStatus,
  type OutboxEntry,
  type RecordedResult,
} from '@cmsg/dal';

/** ActionGroupStore in memory, for specs: same semantics as the MongoDB repository (copies in and out). */
export class InMemoryActionGroupStore implements ActionGroupStore {
  readonly groups = new Map<string, ActionGroupEntity>();

  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    if (!this.groups.has(group._id)) this.groups.set(group._id, structuredClone(group));
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    const group = this.groups.get(uuid);
    return group && group.business_id === scope.businessId ? structuredClone(group) : null;
  }

  async start(group: ActionGroupEntity, at: Date): Promise<ActionGroupEntity> {
    await this.createIfMissing(group);
    const stored = this.groups.get(group._id)!;
    if (!stored.started_at || at < stored.started_at) stored.started_at = at;
    const first = stored.actions[0];
    if (first?.status === 'pending') Object.assign(first, { status: 'running', started_at: at, error: null });
    return structuredClone(stored);
  }

  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    const action = this.scoped(scope, uuid).actions[index]!;
    if (!isFinalActionStatus(action.status)) Object.assign(action, { status: 'running', started_at: at, error: null });
  }

  /** As recordActionResult for each, in one step. */
  async recordActionResults(scope: BusinessScope, uuid: string, results: readonly IndexedActionResult[], startNext?: ActionResultUpdate['startNext']): Promise<RecordedResult[]> {
    const group = this.scoped(scope, uuid);
    startIfPending(group, startNext);
    return results.map(({ index, ...result }) => recordUnlessRecorded(group, index, result));
  }

  /** The first result recorded for an action stands, as with the repository's arrayFilters update. */
  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate): Promise<RecordedResult> {
    const group = this.scoped(scope, uuid);
    startIfPending(group, result.startNext);
    const wasRecorded = isFinalActionStatus(group.actions[index]!.status);
    const recorded = recordUnlessRecorded(group, index, result);
    if (result.event && !wasRecorded) this.push(group, result.event);
    return recorded;
  }

  async markEscalated(scope: BusinessScope, uuid: string, event: OutboxEntry): Promise<boolean> {
    const group = this.scoped(scope, uuid);
    if (group.escalated) return false;
    group.escalated = true;
    this.push(group, event);
    return true;
  }

  async recordLastResultAndFinish(scope: BusinessScope, uuid: string, index: number, result: LastActionResult, finish: GroupFinish): Promise<ActionGroupEntity | null> {
    const group = this.scoped(scope, uuid);
    if (group.status !== 'processing' || isFinalActionStatus(group.actions[index]!.status)) return null;
    recordUnlessRecorded(group, index, result);
    Object.assign(group, { status: finish.status, finished_at: finish.at });
    this.push(group, finish.event);
    return structuredClone(group);
  }

  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date, event: OutboxEntry): Promise<ActionGroupEntity | null> {
    const group = this.scoped(scope, uuid);
    if (group.status === 'processing') {
      Object.assign(group, { status, finished_at: at });
      this.push(group, event);
    }
    return structuredClone(group);
  }

  /** The entries the writes pushed (as the repository's outbox holds them until they are recorded). */
  outboxOf(uuid: string): OutboxEntry[] {
    return this.groups.get(uuid)?.outbox ?? [];
  }

  private push(group: ActionGroupEntity, event: OutboxEntry): void {
    group.outbox = [...(group.outbox ?? []), event];
  }

  private scoped(scope: BusinessScope, uuid: string): ActionGroupEntity {
    const group = this.groups.get(uuid);
    if (!group || group.business_id !== scope.businessId) throw new Error(`no group ${uuid} in ${scope.businessId}`);
    return group;
  }
}

function startIfPending(group: ActionGroupEntity, next: ActionResultUpdate['startNext']): void {
  const action = next ? group.actions[next.index] : undefined;
  if (action?.status === 'pending') Object.assign(action, { status: 'running', started_at: next!.at, error: null });
}

/** The action's result unless it has one (with its start when given); answers the one that counts. */
function recordUnlessRecorded(group: ActionGroupEntity, index: number, result: Omit<ActionResultUpdate, 'startNext' | 'event'>): RecordedResult {
  const action = group.actions[index]!;
  if (isFinalActionStatus(action.status)) return { status: action.status, error: action.error, finishedAt: action.finished_at! };
  Object.assign(action, { status: result.status, error: result.error, finished_at: result.finishedAt, ...(result.startedAt ? { started_at: result.startedAt } : {}) });
  return { status: result.status, error: result.error, finishedAt: result.finishedAt };
}
