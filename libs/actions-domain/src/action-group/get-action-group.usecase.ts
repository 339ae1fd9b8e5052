import type { ActionGroupStore, BusinessScope } from '@cmsg/dal';
import { CatalogError } from '@cmsg/errors';
import type { ActionGroup } from '@cmsg/proto';
import { toActionGroupMessage } from './action-group.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A group of the caller's business; another business's group is as unknown as a missing one. */
export async function getActionGroup(groups: Pick<ActionGroupStore, 'find'>, scope: BusinessScope, uuid: string): Promise<ActionGroup> {
  const group = UUID.test(uuid) ? await groups.find(scope, uuid.toLowerCase()) : null;
  if (!group) throw new CatalogError('ACTION_GROUP_NOT_FOUND', `No action group ${uuid} in this business.`);
  return toActionGroupMessage(group);
}
