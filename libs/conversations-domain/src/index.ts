export { authenticateToken } from './api-tokens/authenticate-token.usecase';
export type { StoredApiToken, TokenAuthenticationPorts } from './api-tokens/authenticate-token.usecase';
export { getConversationStatus } from './inbox/get-conversation-status.usecase';
export type { ConversationStatusPorts } from './inbox/get-conversation-status.usecase';
export type { ObjectsByIds, ReferencedObjectStores } from './inbox/conversation-references';
export type { BusinessDirectory } from './conversation/business-clock';
export { listConversations, CONVERSATIONS_ENDPOINT } from './inbox/list-conversations.usecase';
export type { ConversationListPorts, ConversationPages } from './inbox/list-conversations.usecase';
export { conversationListFiltersOf } from './inbox/conversation-list-filters';
export type { ConversationListFilters } from './inbox/conversation-list-filters';
export { getConversationTimeline, TIMELINE_ENDPOINT, TIMELINE_KINDS } from './timeline/get-conversation-timeline.usecase';
export type { ConversationTimelinePorts, ConversationTimelineRequest, TimelineKind } from './timeline/get-conversation-timeline.usecase';
export type { AiEmployeeNames, TimelineStores } from './timeline/timeline-stores';
export type { TimelineAuthorNames } from './timeline/timeline-items';
export { listContacts } from './contacts/list-contacts.usecase';
export type { ContactListFilters, ListContactsRequest } from './contacts/list-contacts.usecase';
export { addNote, appendNote } from './timeline/add-note.usecase';
export type { AddNotePorts, ApiTokenAuthor, NotePorts } from './timeline/add-note.usecase';
export type { ConversationFinder, ConversationLookup } from './conversation/conversation-resolver';
export { setInboxStatus, setInboxStatusByReference } from './inbox/set-inbox-status.usecase';
export type { InboxStatus, InboxStatusChange, InboxStatusPorts, InboxStatusWriter } from './inbox/set-inbox-status.usecase';
export { listChannels } from './channels/list-channels.usecase';
export type { ChannelListing } from './channels/list-channels.usecase';
export { updateChannelLimits } from './channels/update-channel-limits.usecase';
export type { ChannelLimitsStore, UpdateChannelLimitsInput } from './channels/update-channel-limits.usecase';
export { listTemplates, TEMPLATES_ENDPOINT } from './templates/list-templates.usecase';
export type { ListTemplatesRequest } from './templates/list-templates.usecase';
export { getTemplate } from './templates/get-template.usecase';
export type { TemplateChannelStore, TemplateDependencies, TemplateStore } from './templates/template-ports';
export { resolveConversationReference, resolveConversationUuid } from './conversation/conversation-resolver';
export type { ConversationReference, ResolvedConversation, StoredConversation, StoredContact } from './conversation/conversation-resolver';
export { ListCursorCodec, CURSOR_TTL_MS } from './listing/list-cursor';
export type { PageRequest } from './listing/list-page';
export { messagingWindow, conversationNow, MESSAGING_WINDOW_MS } from './conversation/messaging-window';
export { fullName } from './contacts/contact-names';
export { BROADCAST_SEND_READ_MAX_AGE_MS, type BroadcastSendSources, broadcastSendSources } from './messaging/broadcast-send-sources';
export { sendMessage } from './messaging/send-message.usecase';
export { sendOutcomeOf } from './messaging/send-outcome.usecase';
export type { SendOutcome } from './messaging/send-outcome.usecase';
export { leaseOnly } from './messaging/send-lease';
export type { SendLease } from './messaging/send-lease';
export type { SendMessageDependencies } from './messaging/send-message.usecase';
export type { ConversationLastMessages, MessageAuthorLookup, MessageContentSources, OutboundMessagePorts, OutboundMessages, SendMessagePorts } from './messaging/send-message-ports';
export type { OutboundStorePorts } from './messaging/outbound-message-store';
export { sendMessageCommand, MESSAGE_AUTHOR_TYPES, TEMPLATE_HEADER_TYPES } from './messaging/send-message.command';
export type {
  SendMessageCommand,
  MessageContentInput,
  MessageAuthor,
  MessageAuthorType,
  ObjectReference,
  TemplateReference,
  TemplateSendInput,
  TemplateHeaderInput,
  TemplateHeaderType,
  TemplateVariableInput,
  TemplateButtonParameterInput,
} from './messaging/send-message.command';
export type { MessageSender, SendPacing } from './messaging/message-sender';
export type { OutboundFiles } from './messaging/outbound-file';
export { operationMessageId } from './conversation/operation-ids';
export { PAYMENT_MARKER_FIELDS } from './messaging/payment-markers';
export type { AlreadyInStatePolicy } from './action-support/already-in-state';
export { actorOfToken } from './action-support/action-actor';
export type { ActionActor } from './action-support/action-actor';
export type { ObjectRef } from './action-support/resolve-object-ref';
export { changeTags } from './tags/change-tags.usecase';
export type { ChangeTagsCommand, ChangeTagsPorts, ConversationTagWriter, TagDirectory } from './tags/change-tags.usecase';
export type { TagChangeDirection } from './tags/tag-change-plan';
export { assignMailbox } from './mailbox/assign-mailbox.usecase';
export type { AssignMailboxCommand, AssignMailboxPorts, ConversationMailboxWriter } from './mailbox/assign-mailbox.usecase';
export type { MailboxDirectory } from './mailbox/resolve-mailbox-target';
export { assignAiEmployee } from './ai-assignment/assign-ai-employee.usecase';
export type { AssignAiEmployeeCommand } from './ai-assignment/assign-ai-employee.usecase';
export type { AiAssignmentPorts, ConversationOwnerWriter, DefaultScheduledTemplate, PendingSchedules } from './ai-assignment/ai-assignment-ports';
export { unassignAi } from './ai-assignment/unassign-ai.usecase';
export type { UnassignAiCommand } from './ai-assignment/unassign-ai.usecase';
export { resolveAiEmployee } from './ai-assignment/resolve-ai-employee.usecase';
export { chargeAiWallet } from './ai-assignment/charge-ai-wallet.usecase';
export type { AiEmployeeStore } from './ai-assignment/ai-employee-store';
export type { ChargeAiWalletCommand } from './ai-assignment/charge-ai-wallet.usecase';
export { escalate, DEFAULT_ESCALATION_REASON } from './escalation/escalate.usecase';
export { getConversationContext } from './context/get-conversation-context.usecase';
export type { ConversationContextPorts } from './context/get-conversation-context.usecase';
export { getRecentTimeline } from './context/get-recent-timeline.usecase';
export type { RecentTimelinePorts } from './context/get-recent-timeline.usecase';
export { DEFAULT_TIMELINE_LIMIT, MAX_TIMELINE_LIMIT } from './timeline/timeline-merge';
export { listEvents } from './events/list-events.usecase';
export type { ListEventsRequest } from './events/list-events.usecase';
export { getEvent } from './events/get-event.usecase';
export type { EventReadPorts, EventStore } from './events/event-ports';
export * from './contacts';
export { startConversation } from './start-conversation/start-conversation.usecase';
export type { StartConversationCommand, StartConversationResult, StartContactInput } from './start-conversation/start-conversation.usecase';
export type { StartConversationPorts, StartedMessage } from './start-conversation/start-conversation-ports';
export { startConversationBindings } from './start-conversation/start-conversation-bindings';
export type { StartConversationSteps } from './start-conversation/start-conversation-bindings';
export { contactEligibility } from './eligibility/contact-eligibility';
export type { ContactEligibility, EligibilityFacts, EligibilityReason } from './eligibility/contact-eligibility';
export { getContactEligibility } from './eligibility/get-contact-eligibility.usecase';
export type { EligibilityPorts } from './eligibility/get-contact-eligibility.usecase';
