import { CatalogError } from '@cmsg/errors';
import { type BusinessScope, nameLookupKey } from '@cmsg/dal';
import type { MessageContentSources, StoredQuickReply } from './send-message-ports';
import type { ObjectReference } from './send-message.command';

type QuickReplies = MessageContentSources['quickReplies'];

/** A quick reply by uuid, or by name (case-insensitive); QUICK_REPLY_EMPTY when it has nothing to send. */
export async function resolveQuickReply(quickReplies: QuickReplies, scope: BusinessScope, reference: ObjectReference): Promise<StoredQuickReply> {
  const quickReply = reference.uuid ? await byUuid(quickReplies, scope, reference.uuid) : await byName(quickReplies, scope, reference.name ?? '');
  if (quickReply.actions.length === 0) throw new CatalogError('QUICK_REPLY_EMPTY', `Quick reply ${quickReply.name} has no actions.`);
  return quickReply;
}

async function byUuid(quickReplies: QuickReplies, scope: BusinessScope, uuid: string): Promise<StoredQuickReply> {
  const quickReply = await quickReplies.findById(scope, uuid);
  if (!quickReply) throw new CatalogError('QUICK_REPLY_NOT_FOUND', `No quick reply ${uuid} in this business.`);
  return quickReply;
}

async function byName(quickReplies: QuickReplies, scope: BusinessScope, name: string): Promise<StoredQuickReply> {
  const matches = await quickReplies.findByNameKey(scope, nameLookupKey(name));
  if (matches.length === 0) throw new CatalogError('QUICK_REPLY_NOT_FOUND', `No quick reply named ${name} in this business.`);
  if (matches.length > 1) throw new CatalogError('QUICK_REPLY_AMBIGUOUS', `Several quick replies are named ${name}; use quick_reply: { uuid }.`);
  return matches[0]!;
}
