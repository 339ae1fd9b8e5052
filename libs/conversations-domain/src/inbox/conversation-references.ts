import type { BusinessScope } from '@cmsg/dal';
import type { NamedRef, Tag } from '@cmsg/proto';

/**
 * Names of the objects conversations point to (tags, mailbox, AI employee), loaded in one query
 * per kind for a whole page (a join per row would cost a query per conversation).
 */
export interface ReferencedObjects {
  tag(id: string): Tag | undefined;
  mailbox(id: string | null | undefined): NamedRef | undefined;
  aiEmployee(id: string | null | undefined): NamedRef | undefined;
}

/** A collection read by ids within the business (TagRepository, MailboxRepository, AiEmployeeRepository). */
export interface ObjectsByIds<Row> {
  findByIds(scope: BusinessScope, ids: readonly string[]): Promise<Row[]>;
}

/** Where the names of a conversation's tags, mailbox and AI employee are read. */
export interface ReferencedObjectStores {
  tags: ObjectsByIds<{ _id: string; name: string; color?: string | null }>;
  mailboxes: ObjectsByIds<{ _id: string; name: string }>;
  aiEmployees: ObjectsByIds<{ _id: string; name: string }>;
}

interface ConversationPointers {
  tag_ids: string[];
  mailbox_id?: string | null;
  ai_employee_id?: string | null;
}

export async function loadReferencedObjects(stores: ReferencedObjectStores, scope: BusinessScope, conversations: ConversationPointers[]): Promise<ReferencedObjects> {
  const [tags, mailboxes, employees] = await Promise.all([
    stores.tags.findByIds(scope, presentIds(conversations.flatMap((conversation) => conversation.tag_ids))),
    stores.mailboxes.findByIds(scope, presentIds(conversations.map((conversation) => conversation.mailbox_id))),
    stores.aiEmployees.findByIds(scope, presentIds(conversations.map((conversation) => conversation.ai_employee_id))),
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
