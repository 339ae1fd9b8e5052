import { cancelScheduledMessageEndpoint, createScheduledMessageEndpoint, getScheduledMessageEndpoint } from '@cmsg/api-schemas';
import { toCreateScheduledMessageRequest, toCreateScheduledMessageResponse, toScheduledMessageView } from '../mappers/scheduled-message.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const scheduledMessageRoutes: readonly BusinessRoute[] = [
  businessRoute(createScheduledMessageEndpoint, {
    call: ({ scheduler }, { caller, body }) => scheduler.createScheduledMessage(toCreateScheduledMessageRequest(caller, body)),
    toResponse: toCreateScheduledMessageResponse,
  }),
  businessRoute(getScheduledMessageEndpoint, {
    call: ({ scheduler }, { caller, params }) => scheduler.getScheduledMessage({ caller, uuid: params.uuid }),
    toResponse: toScheduledMessageView,
  }),
  businessRoute(cancelScheduledMessageEndpoint, {
    call: ({ scheduler }, { caller, params }) => scheduler.cancelScheduledMessage({ caller, uuid: params.uuid }),
    toResponse: toScheduledMessageView,
  }),
];
