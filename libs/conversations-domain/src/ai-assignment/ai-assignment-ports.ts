import type { AiEmployeeEntity, BusinessScope, ConversationChange, ConversationEntity, OutboxEntry, ScheduledMessageEntity } from '@cmsg/dal';
import type { ScheduleHistoryEntry } from '@cmsg/conversation-commands';
import type { OutboxRecorder } from '@cmsg/events';
import type { NamedObjects } from '../action-support/resolve-object-ref';
import type { ConversationLookup } from '../conversation/conversation-resolver';
import type { InboxStatusWriter } from '../inbox/set-inbox-status.usecase';

/** The owner update of a conversation (ConversationRepository): null when the owner it replaces is no longer there. */
export interface ConversationOwnerWriter {
  changeOwner(scope: BusinessScope, id: string, change: ConversationChange<string | null>): Promise<ConversationEntity | null>;
}

/** A conversation's pending scheduled message and the conditional changes an owner change makes to it (ScheduledMessageRepository). */
export interface PendingSchedules {
  pendingOfConversation(scope: BusinessScope, conversationId: string): Promise<ScheduledMessageEntity | null>;
  /** pending -> cancelled; null when it was no longer pending. */
  cancelPending(scope: BusinessScope, id: string, entry: ScheduleHistoryEntry, event: OutboxEntry): Promise<ScheduledMessageEntity | null>;
  /** Keeps it pending with these fields; false when it was no longer pending. */
  reassignPending(scope: BusinessScope, id: string, fields: Partial<ScheduledMessageEntity>, entry: ScheduleHistoryEntry): Promise<boolean>;
}

/** The template id of a channel's default scheduled template, null when it sets none (DefaultScheduledTemplates of libs/dal). */
export type DefaultScheduledTemplate = (scope: BusinessScope, channelId: string) => Promise<string | null>;

/** What assigning and unassigning the AI read and write, built once in the app's composition root. */
export interface AiAssignmentPorts {
  lookup: ConversationLookup;
  aiEmployees: NamedObjects<AiEmployeeEntity>;
  owners: ConversationOwnerWriter;
  schedules: PendingSchedules;
  defaultScheduledTemplate: DefaultScheduledTemplate;
  /** The handoff to humans sets the conversation pending. */
  inboxStatus: InboxStatusWriter;
  outbox: OutboxRecorder;
  clock: () => Date;
}
