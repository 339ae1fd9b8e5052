import { createHash } from 'node:crypto';
import type { ActionGroupEntity } from '@cmsg/dal';
import { publicActionStatus } from '../action-group/action-group.view';

export const WEBHOOK_EVENT_TYPES = ['action.failed', 'action_group.finished'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What every endpoint receives: `{id, type, created_at, data}`; `id` is the same on every retry. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** A UUID-shaped id derived from its parts, so re-running a group yields the same event ids. */
export function deterministicUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  // Version 8 (custom) with the RFC 9562 variant bits.
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

export function actionFailedEvent(group: ActionGroupEntity, index: number, at: Date): WebhookEvent {
  const action = group.actions[index]!;
  return {
    id: deterministicUuid(group._id, 'action.failed', String(index)),
    type: 'action.failed',
    created_at: at.toISOString(),
    data: {
      action_group: { uuid: group._id },
      conversation: { uuid: group.conversation_id },
      action: { index, type: action.type, error: action.error },
    },
  };
}

export function actionGroupFinishedEvent(group: ActionGroupEntity, at: Date): WebhookEvent {
  return {
    id: deterministicUuid(group._id, 'action_group.finished'),
    type: 'action_group.finished',
    created_at: at.toISOString(),
    data: {
      action_group: {
        uuid: group._id,
        status: group.status,
        escalated: group.escalated,
        actions: group.actions.map((action) => ({ index: action.index, type: action.type, status: publicActionStatus(action.status), error: action.error })),
        created_at: group.created_at.toISOString(),
        finished_at: group.finished_at?.toISOString() ?? null,
      },
      conversation: { uuid: group.conversation_id },
    },
  };
}
