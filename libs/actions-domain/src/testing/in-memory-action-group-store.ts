import type { BusinessScope } from '@cmsg/dal';
import type { ActionGroupEntity, GroupStatus } from '../action-group/action-group.model';
import { FINAL_ACTION_STATUSES } from '../action-group/action-group.model';
import type { ActionGroupStore, ActionResultUpdate, RecordedResult } from '../action-group/action-group.repository';

/** ActionGroupStore in memory, for specs: same semantics as the MongoDB repository (copies in and out). */
export class InMemoryActionGroupStore implements ActionGroupStore {
  readonly groups = new Map<string, ActionGroupEntity>();

  async createIfMissing(group: ActionGroupEntity): Promise<void> {
    if (!this.groups.has(group._id)) this.groups.set(group._id, structuredClone(group));
  }

  async open(group: ActionGroupEntity): Promise<ActionGroupEntity> {
    await this.createIfMissing(group);
    return structuredClone(this.groups.get(group._id)!);
  }

  async find(scope: BusinessScope, uuid: string): Promise<ActionGroupEntity | null> {
    const group = this.groups.get(uuid);
    return group && group.business_id === scope.businessId ? structuredClone(group) : null;
  }

  async markStarted(scope: BusinessScope, uuid: string, at: Date): Promise<Date> {
    const group = this.scoped(scope, uuid);
    group.started_at ??= at;
    return group.started_at;
  }

  async markActionRunning(scope: BusinessScope, uuid: string, index: number, at: Date): Promise<void> {
    Object.assign(this.scoped(scope, uuid).actions[index]!, { status: 'running', started_at: at, error: null });
  }

  /** The first result recorded for an action stands, as with the repository's insert-decisions. */
  async recordActionResult(scope: BusinessScope, uuid: string, index: number, result: ActionResultUpdate): Promise<RecordedResult> {
    const group = this.scoped(scope, uuid);
    const action = group.actions[index]!;
    if (FINAL_ACTION_STATUSES.includes(action.status)) return { status: action.status as RecordedResult['status'], error: action.error, finishedAt: action.finished_at! };
    Object.assign(action, { status: result.status, error: result.error, finished_at: result.finishedAt });
    if (result.startNext && result.status !== 'failed') Object.assign(group.actions[result.startNext.index]!, { status: 'running', started_at: result.startNext.at, error: null });
    return { status: result.status, error: result.error, finishedAt: result.finishedAt };
  }

  async markEscalated(scope: BusinessScope, uuid: string): Promise<boolean> {
    const group = this.scoped(scope, uuid);
    if (group.escalated) return false;
    group.escalated = true;
    return true;
  }

  async finish(scope: BusinessScope, uuid: string, status: Exclude<GroupStatus, 'processing'>, at: Date): Promise<ActionGroupEntity | null> {
    const group = this.scoped(scope, uuid);
    if (group.status === 'processing') Object.assign(group, { status, finished_at: at });
    return structuredClone(group);
  }

  private scoped(scope: BusinessScope, uuid: string): ActionGroupEntity {
    const group = this.groups.get(uuid);
    if (!group || group.business_id !== scope.businessId) throw new Error(`no group ${uuid} in ${scope.businessId}`);
    return group;
  }
}
