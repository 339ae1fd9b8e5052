import type { BusinessRoute } from './business-route';
import { actionGroupRoutes } from './action-group.routes';
import { broadcastRoutes } from './broadcast.routes';
import { channelRoutes } from './channel.routes';
import { conversationActionRoutes } from './conversation-action.routes';
import { contactRoutes } from './contact.routes';
import { conversationRoutes } from './conversation.routes';
import { eventRoutes } from './event.routes';
import { listRoutes } from './list.routes';
import { fileRoutes } from './file.routes';
import { messageRoutes } from './message.routes';
import { scheduledMessageRoutes } from './scheduled-message.routes';
import { startConversationRoutes } from './start-conversation.routes';
import { templateRoutes } from './template.routes';
import { testerRoutes } from './tester.routes';
import { webhookEndpointRoutes } from './webhook-endpoint.routes';

/** Every business route; a spec checks this matches PUBLIC_ENDPOINTS one to one. */
export const BUSINESS_ROUTES: readonly BusinessRoute[] = [...conversationRoutes, ...listRoutes, ...contactRoutes, ...channelRoutes, ...templateRoutes, ...conversationActionRoutes, ...messageRoutes, ...startConversationRoutes, ...broadcastRoutes, ...actionGroupRoutes, ...scheduledMessageRoutes, ...testerRoutes, ...fileRoutes, ...webhookEndpointRoutes, ...eventRoutes];
