import type { BusinessScope, ConversationEntity } from '@cmsg/dal';
import { customerNameOf } from '@cmsg/events';
import type { TimelineAuthorNames } from './timeline-items';
import type { TimelineRow } from './timeline-merge';
import type { AiEmployeeNames } from './timeline-stores';

/**
 * The names the authors of a page show, in one read per kind of author for the whole page: the
 * customer's from the conversation's copy of its contact (no read: its name, else its profile name), the AI employees' in one
 * query; API tokens and the system have no name, and a name stored with a row is used as is.
 */
export async function loadTimelineAuthorNames(aiEmployees: AiEmployeeNames, scope: BusinessScope, conversation: ConversationEntity, rows: readonly TimelineRow[]): Promise<TimelineAuthorNames> {
  const unnamedEmployees = rows
    .map((row) => row.row.author)
    .filter((author) => author?.type === 'ai_employee' && !(author as { name?: string | null }).name && author.uuid)
    .map((author) => author!.uuid!);
  const employees = await aiEmployees.findByIds(scope, unnamedEmployees);
  const employeeNames = new Map(employees.map((employee) => [employee._id, employee.name]));
  return {
    customer: { uuid: conversation.contact_id, name: customerNameOf(conversation.contact) },
    aiEmployee: (uuid) => employeeNames.get(uuid),
  };
}
