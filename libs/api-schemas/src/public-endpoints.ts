import { listChannelsEndpoint, updateChannelLimitsEndpoint } from './channels.schema';
import { listContactsEndpoint, listTesterContactsEndpoint } from './contact-list.schema';
import { listConversationsEndpoint } from './conversation-list.schema';
import { conversationTimelineEndpoint } from './conversation-timeline.schema';
import { conversationStatusEndpoint } from './conversation-status.schema';
import { markPendingEndpoint, markResolvedEndpoint } from './inbox-status.schema';
import { addNoteEndpoint } from './notes.schema';
import { ACTION_GROUP_ENDPOINTS } from './action-groups.endpoints';
import { BROADCAST_ENDPOINTS } from './broadcasts.endpoints';
import { CONTACT_ENDPOINTS } from './contacts.endpoints';
import { CONVERSATION_ACTION_ENDPOINTS } from './conversation-actions.endpoints';
import { EVENT_ENDPOINTS } from './events.endpoints';
import { FILE_ENDPOINTS } from './files.endpoints';
import { MESSAGE_ENDPOINTS } from './messages.endpoints';
import { SCHEDULED_MESSAGE_ENDPOINTS } from './scheduled-messages.endpoints';
import { START_CONVERSATION_ENDPOINTS } from './start-conversation.endpoints';
import { TEMPLATE_ENDPOINTS } from './templates.endpoints';
import { TESTER_ENDPOINTS } from './tester.endpoints';
import { WEBHOOK_ENDPOINT_ENDPOINTS } from './webhook-endpoints.endpoints';
import type { PublicEndpoint } from './public-endpoint';

/** Every public business endpoint; the gateway routes exactly these and the OpenAPI document lists them. */
export const PUBLIC_ENDPOINTS: readonly PublicEndpoint[] = [
  conversationStatusEndpoint,
  addNoteEndpoint,
  markPendingEndpoint,
  markResolvedEndpoint,
  listConversationsEndpoint,
  conversationTimelineEndpoint,
  listContactsEndpoint,
  listTesterContactsEndpoint,
  ...CONTACT_ENDPOINTS,
  listChannelsEndpoint,
  updateChannelLimitsEndpoint,
  ...TEMPLATE_ENDPOINTS,
  ...CONVERSATION_ACTION_ENDPOINTS,
  ...MESSAGE_ENDPOINTS,
  ...START_CONVERSATION_ENDPOINTS,
  ...BROADCAST_ENDPOINTS,
  ...ACTION_GROUP_ENDPOINTS,
  ...SCHEDULED_MESSAGE_ENDPOINTS,
  ...TESTER_ENDPOINTS,
  ...FILE_ENDPOINTS,
  ...WEBHOOK_ENDPOINT_ENDPOINTS,
  ...EVENT_ENDPOINTS,
];
