import { CatalogError, isCatalogError } from '@cmsg/errors';
import { type BusinessScope, ConversationModel, TagModel, scopedFilter } from '@cmsg/dal';
import type { ChangeTagsResponse, Tag } from '@cmsg/proto';
import type { AlreadyInStatePolicy } from '../action-support/already-in-state';
import { type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';
import { type ConversationReference, resolveConversationReference, type StoredConversation } from '../resolve-conversation-reference';
import { type ResolvedTagRef, type StoredTag, type TagChangeDirection, type TagChangeOutcome, planTagChange } from './tag-change-plan';

export interface ChangeTagsCommand {
  reference: ConversationReference;
  tags: ObjectRef[];
  direction: TagChangeDirection;
  policy: AlreadyInStatePolicy;
}

/** A concurrent tag change makes the compare-and-set miss; the plan is redone on the fresh tags. */
const MAX_ATTEMPTS = 3;

/**
 * AssignTags / RemoveTags (SPEC 4.3 assign_label / remove_label, CONTRACT 5 /conversation/tags):
 * every reference is resolved and judged on its own; the successful ones are applied in one
 * atomic update per conversation ($addToSet / $pullAll of plain string ids, which FerretDB
 * supports), guarded by a compare-and-set on the tags the plan was made from.
 */
export async function changeTags(scope: BusinessScope, command: ChangeTagsCommand): Promise<ChangeTagsResponse> {
  if (command.tags.length === 0) throw new CatalogError('INVALID_REQUEST', 'tags: at least one tag reference is required.');
  let { conversation } = await resolveConversationReference(scope, command.reference);
  const resolved = await Promise.all(command.tags.map((ref) => resolveTag(scope, ref)));

  for (let attempt = 1; ; attempt += 1) {
    const plan = planTagChange(command.direction, command.policy, conversation.tag_ids, resolved);
    if (plan.toApply.length === 0) return responseOf(scope, conversation, plan.outcomes);
    const updated = await applyTagChange(scope, conversation._id, command.direction, plan.toApply);
    if (updated) return responseOf(scope, updated, plan.outcomes);
    if (attempt === MAX_ATTEMPTS) throw new CatalogError('UPDATE_FAILED', 'The conversation tags kept changing during the update; retry.');
    const current = await ConversationModel.findOne(scopedFilter(scope, { _id: conversation._id })).lean<StoredConversation>();
    if (!current) throw new CatalogError('CONVERSATION_NOT_FOUND');
    conversation = current;
  }
}

async function resolveTag(scope: BusinessScope, requested: ObjectRef): Promise<ResolvedTagRef> {
  try {
    const tag = await resolveObjectRef<StoredTag>(TagModel, scope, requested, { notFound: 'TAG_NOT_FOUND', ambiguous: 'TAG_AMBIGUOUS', otherBusiness: 'TAG_BUSINESS_MISMATCH' }, 'tag');
    return { requested, tag };
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    return { requested, error };
  }
}

/** Applies only if none (assign) or all (remove) of the ids are still as planned; null otherwise. */
function applyTagChange(scope: BusinessScope, conversationId: string, direction: TagChangeDirection, tagIds: string[]): Promise<StoredConversation | null> {
  const now = new Date();
  const [guard, change] =
    direction === 'assign'
      ? [{ tag_ids: { $nin: tagIds } }, { $addToSet: { tag_ids: { $each: tagIds } } }]
      : [{ tag_ids: { $all: tagIds } }, { $pullAll: { tag_ids: tagIds } }];
  return ConversationModel.findOneAndUpdate(scopedFilter(scope, { _id: conversationId, ...guard }), { ...change, $set: { updated_at: now } }, { new: true }).lean<StoredConversation>();
}

function publicTag(tag: Pick<StoredTag, '_id' | 'name' | 'color'>): Tag {
  return { uuid: tag._id, name: tag.name, color: tag.color ?? '' };
}

/** The conversation's tags after the change, in the conversation's order. */
async function currentTags(scope: BusinessScope, tagIds: string[]): Promise<Tag[]> {
  if (tagIds.length === 0) return [];
  const stored = await TagModel.find(scopedFilter(scope, { _id: { $in: tagIds } }), { name: 1, color: 1 }).lean<StoredTag[]>();
  const byId = new Map(stored.map((tag) => [tag._id, publicTag(tag)]));
  return tagIds.map((id) => byId.get(id)).filter((tag): tag is Tag => tag !== undefined);
}

async function responseOf(scope: BusinessScope, conversation: StoredConversation, outcomes: TagChangeOutcome[]): Promise<ChangeTagsResponse> {
  return {
    conversation: { uuid: conversation._id },
    tags: await currentTags(scope, conversation.tag_ids),
    results: outcomes.map((outcome) => ({
      requested: outcome.requested,
      tag: outcome.tag && publicTag(outcome.tag),
      status: outcome.status,
      error: outcome.error,
    })),
  };
}
