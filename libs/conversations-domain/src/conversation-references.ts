import { AiEmployeeModel, type BusinessScope, MailboxModel, TagModel, scopedFilter } from '@cmsg/dal';
import type { NamedRef, Tag } from '@cmsg/proto';

/**
 * Names of the objects conversations point to (tags, mailbox, AI employee), loaded in one query
 * per kind for a whole page: FerretDB has no $lookup, so joins happen here.
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
  const tagIds = unique(conversations.flatMap((conversation) => conversation.tag_ids));
  const mailboxIds = unique(conversations.map((conversation) => conversation.mailbox_id));
  const employeeIds = unique(conversations.map((conversation) => conversation.ai_employee_id));
  const [tags, mailboxes, employees] = await Promise.all([
    tagIds.length ? TagModel.find(scopedFilter(scope, { _id: { $in: tagIds } }), { name: 1, color: 1 }).lean<{ _id: string; name: string; color: string }[]>() : [],
    mailboxIds.length ? MailboxModel.find(scopedFilter(scope, { _id: { $in: mailboxIds } }), { name: 1 }).lean<{ _id: string; name: string }[]>() : [],
    employeeIds.length ? AiEmployeeModel.find(scopedFilter(scope, { _id: { $in: employeeIds } }), { name: 1 }).lean<{ _id: string; name: string }[]>() : [],
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

function unique(ids: (string | null | undefined)[]): string[] {
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id.length > 0))];
}

export function tagsOf(objects: ReferencedObjects, tagIds: string[]): Tag[] {
  return tagIds.map((id) => objects.tag(id)).filter((tag): tag is Tag => tag !== undefined);
}
