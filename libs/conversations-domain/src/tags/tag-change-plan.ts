import { CatalogError, type ErrorCode } from '@cmsg/errors';
import type { AlreadyInStatePolicy } from '../action-support/already-in-state';
import type { ObjectRef } from '../action-support/resolve-object-ref';

export type TagChangeDirection = 'assign' | 'remove';

export interface StoredTag {
  _id: string;
  name: string;
  color?: string | null;
  is_default: boolean;
}

/** One requested reference after lookup: the tag, or why it could not be resolved. */
export type ResolvedTagRef = { requested: ObjectRef; tag: StoredTag } | { requested: ObjectRef; error: CatalogError };

export type TagChangeStatus = 'assigned' | 'removed' | 'noop' | 'failed';

export interface TagChangeOutcome {
  requested: ObjectRef;
  tag: StoredTag | undefined;
  status: TagChangeStatus;
  error: { code: ErrorCode; message: string } | undefined;
}

export interface TagChangePlan {
  outcomes: TagChangeOutcome[];
  /** Tag ids to $addToSet / $pullAll in one update; each one once. */
  toApply: string[];
}

const RULES = {
  assign: { applied: 'assigned', defaultTag: 'CANNOT_ASSIGN_DEFAULT_TAG', alreadyInState: 'TAG_ALREADY_ASSIGNED' },
  remove: { applied: 'removed', defaultTag: 'CANNOT_REMOVE_DEFAULT_TAG', alreadyInState: 'TAG_NOT_ASSIGNED' },
} as const satisfies Record<TagChangeDirection, { applied: TagChangeStatus; defaultTag: ErrorCode; alreadyInState: ErrorCode }>;

/**
 * Decides each requested tag against the conversation's tags as read: the successful ones are
 * applied together, the others are reported one by one (a request can partly fail: 207).
 */
export function planTagChange(
  direction: TagChangeDirection,
  policy: AlreadyInStatePolicy,
  currentTagIds: readonly string[],
  resolved: readonly ResolvedTagRef[],
): TagChangePlan {
  const rules = RULES[direction];
  const current = new Set(currentTagIds);
  const toApply: string[] = [];
  const failed = (requested: ObjectRef, tag: StoredTag | undefined, error: CatalogError): TagChangeOutcome => ({
    requested,
    tag,
    status: 'failed',
    error: { code: error.code, message: error.message },
  });

  const outcomes = resolved.map((entry): TagChangeOutcome => {
    if ('error' in entry) return failed(entry.requested, undefined, entry.error);
    const { requested, tag } = entry;
    if (tag.is_default) return failed(requested, tag, new CatalogError(rules.defaultTag, `The tag '${tag.name}' is system-managed.`));
    const alreadyInState = direction === 'assign' ? current.has(tag._id) : !current.has(tag._id);
    if (alreadyInState) {
      if (policy === 'noop') return { requested, tag, status: 'noop', error: undefined };
      const message = direction === 'assign' ? `The tag '${tag.name}' is already on the conversation.` : `The tag '${tag.name}' is not on the conversation.`;
      return failed(requested, tag, new CatalogError(rules.alreadyInState, message));
    }
    if (!toApply.includes(tag._id)) toApply.push(tag._id);
    return { requested, tag, status: rules.applied, error: undefined };
  });
  return { outcomes, toApply };
}
