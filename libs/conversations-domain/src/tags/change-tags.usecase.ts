import { CatalogError, isCatalogError } from '@cmsg/errors';
import type { BusinessScope, OutboxEntry } from '@cmsg/dal';
import { type OutboxRecorder, authorOf, outboxEntry, withConversationChange, tagsChangeData } from '@cmsg/events';
import type { ChangeTagsResponse, Tag } from '@cmsg/proto';
import type { ActionActor } from '../action-support/action-actor';
import type { AlreadyInStatePolicy } from '../action-support/already-in-state';
import { type NamedObjects, type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';
import { MAX_CHANGE_ROUNDS } from '../conversation/conversation-change';
import { type ConversationLookup, type ConversationReference, reloadConversation, resolveConversation, type StoredConversation } from '../conversation/conversation-resolver';
import { type ResolvedTagRef, type StoredTag, type TagChangeDirection, type TagChangeOutcome, planTagChange } from './tag-change-plan';

export interface ChangeTagsCommand {
  reference: ConversationReference;
  tags: ObjectRef[];
  direction: TagChangeDirection;
  policy: AlreadyInStatePolicy;
  actor: ActionActor;
}

/** The business's tags, by reference and by ids (TagRepository in the app). */
export interface TagDirectory extends NamedObjects<StoredTag> {
  findByIds(scope: BusinessScope, ids: readonly string[]): Promise<Pick<StoredTag, '_id' | 'name' | 'color'>[]>;
}

/** The tag updates of a conversation (ConversationRepository): each pushes its entry and takes the event's sequence; null when it no longer matches. */
export interface ConversationTagWriter {
  addTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<StoredConversation | null>;
  removeTags(scope: BusinessScope, id: string, tagIds: readonly string[], event: OutboxEntry, now: Date): Promise<StoredConversation | null>;
}

export interface ChangeTagsPorts {
  lookup: ConversationLookup;
  tags: TagDirectory;
  conversationTags: ConversationTagWriter;
  outbox: OutboxRecorder;
  clock: () => Date;
}

/**
 * AssignTags / RemoveTags (SPEC 4.3 assign_label / remove_label, CONTRACT 5 /conversation/tags):
 * every reference is resolved and judged on its own; the successful ones are applied together in
 * one update ($addToSet / $pull) that matches only while none of them (assign) or all of them
 * (remove) are as planned, so its conversation.tags_changed entry lists exactly the tags this
 * request changed. When a
 * concurrent change made it miss, the plan is made again on the conversation as it is then.
 */
export async function changeTags(ports: ChangeTagsPorts, scope: BusinessScope, command: ChangeTagsCommand): Promise<ChangeTagsResponse> {
  if (command.tags.length === 0) throw new CatalogError('INVALID_REQUEST', 'tags: at least one tag reference is required.');
  let conversation = await resolveConversation(ports.lookup, scope, command.reference);
  const resolved = await Promise.all(command.tags.map((ref) => resolveTag(ports.tags, scope, ref)));

  for (let round = 0; round < MAX_CHANGE_ROUNDS; round += 1) {
    const plan = planTagChange(command.direction, command.policy, conversation.tag_ids, resolved);
    if (plan.toApply.length === 0) return responseOf(ports.tags, scope, conversation, plan.outcomes);
    const now = ports.clock();
    const data = command.direction === 'assign' ? tagsChangeData(plan.toApply, []) : tagsChangeData([], plan.toApply);
    const event = outboxEntry('conversation.tags_changed', conversation._id, data, authorOf(command.actor), now);
    const changed =
      command.direction === 'assign'
        ? await ports.conversationTags.addTags(scope, conversation._id, plan.toApply, event, now)
        : await ports.conversationTags.removeTags(scope, conversation._id, plan.toApply, event, now);
    if (changed) {
      await ports.outbox.recordQuietly('conversations', scope, changed._id, [withConversationChange(event, changed)]);
      return responseOf(ports.tags, scope, changed, plan.outcomes);
    }
    conversation = await reloadConversation(ports.lookup.conversations, scope, conversation._id);
  }
  throw new CatalogError('UPDATE_FAILED', 'The conversation tags kept changing during the update; retry.');
}

async function resolveTag(tags: TagDirectory, scope: BusinessScope, requested: ObjectRef): Promise<ResolvedTagRef> {
  try {
    const tag = await resolveObjectRef<StoredTag>(tags, scope, requested, { notFound: 'TAG_NOT_FOUND', ambiguous: 'TAG_AMBIGUOUS', otherBusiness: 'TAG_BUSINESS_MISMATCH' }, 'tag');
    return { requested, tag };
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    return { requested, error };
  }
}

function publicTag(tag: Pick<StoredTag, '_id' | 'name' | 'color'>): Tag {
  return { uuid: tag._id, name: tag.name, color: tag.color ?? '' };
}

/** The conversation's tags after the change, in the conversation's order. */
async function currentTags(tags: TagDirectory, scope: BusinessScope, tagIds: string[]): Promise<Tag[]> {
  const stored = await tags.findByIds(scope, tagIds);
  const byId = new Map(stored.map((tag) => [tag._id, publicTag(tag)]));
  return tagIds.map((id) => byId.get(id)).filter((tag): tag is Tag => tag !== undefined);
}

async function responseOf(tags: TagDirectory, scope: BusinessScope, conversation: StoredConversation, outcomes: TagChangeOutcome[]): Promise<ChangeTagsResponse> {
  return {
    conversation: { uuid: conversation._id },
    tags: await currentTags(tags, scope, conversation.tag_ids),
    results: outcomes.map((outcome) => ({
      requested: outcome.requested,
      tag: outcome.tag && publicTag(outcome.tag),
      status: outcome.status,
      error: outcome.error,
    })),
  };
}
