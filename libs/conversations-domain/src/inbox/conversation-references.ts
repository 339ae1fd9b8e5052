import type { BusinessScope } from '@cmsg/dal';
import type { NamedRef, Tag } from '@cmsg/proto';
import { repositories } from '../repositories';

/**
 * Names of the objects conversations point to (tags, mailbox, AI employee), loaded in one query
 * per kind for a whole page (a join per row would cost a query per conversation).
 */
export interface ReferencedObjects {
  tag(id: string): Tag | undefined;
  mailbox(id: string | null | undefined): NamedRef | undefined;
  aiEmployee(id: string | null | undefined): NamedRef | undefined;
}

interface ConversationPointers {
  tag_ids: string[];
  mailbox_id?: string | null;
  ai_employee_id?: string | null;
}

export async function loadReferencedObjects(scope: BusinessScope, conversations: ConversationPointers[]): Promise<ReferencedObjects> {
  const [tags, mailboxes, employees] = await Promise.all([
    repositories.tags.findByIds(scope, presentIds(conversations.flatMap((conversation) => conversation.tag_ids))),
    repositories.mailboxes.findByIds(scope, presentIds(conversations.map((conversation) => conversation.mailbox_id))),
    repositories.aiEmployees.findByIds(scope, presentIds(conversations.map((conversation) => conversation.ai_employee_id))),
  ]);
  const tagsById = new Map(tags.map((tag) => [tag._id, { uuid: tag._id, name: tag.name, color: tag.color ?? '' }]));
  const mailboxesById = new Map(mailboxes.map((mailbox) => [mailbox._id, { uuid: mailbox._id, name: mailbox.name }]));
  const employeesById = new Map(employees.map((employee) => [employee._id, { uuid: employee._id, name: employee.name }]));
  return {
    tag: (id) => tagsById.get(id),
    mailbox: (id) => (id ? mailboxesById.get(id) : undefined),
    aiEmployee: (id) => (id ? employeesById.get(id) : undefined),
  };
}

function presentIds(ids: (string | null | undefined)[]): string[] {
  return ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
}

export function tagsOf(objects: ReferencedObjects, tagIds: string[]): Tag[] {
  return tagIds.map((id) => objects.tag(id)).filter((tag): tag is Tag => tag !== undefined);
}
