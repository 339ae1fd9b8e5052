import { advanceTesterClockEndpoint, createTesterContactEndpoint, listTesterMessagesEndpoint, testerInboundEndpoint } from '@cmsg/api-schemas';
import { toCreateTesterContactResponse, toTesterClockResponse, toTesterInboundResponse, toTesterMessagesResponse } from '../mappers/tester.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/** CONTRACT 6: the tester module lives in the scheduler, which owns the business virtual clock. */
export const testerRoutes: readonly BusinessRoute[] = [
  businessRoute(createTesterContactEndpoint, {
    call: ({ scheduler }, { caller, body }) => scheduler.createTesterContact({ caller, ...body }),
    toResponse: toCreateTesterContactResponse,
  }),
  businessRoute(testerInboundEndpoint, {
    call: ({ scheduler }, { caller, body }) => scheduler.recordTesterInbound({ caller, conversation: body.conversation, text: body.text }),
    toResponse: toTesterInboundResponse,
  }),
  businessRoute(advanceTesterClockEndpoint, {
    call: ({ scheduler }, { caller, body }) => scheduler.advanceTesterClock({ caller, advance_seconds: body.advance_seconds }),
    toResponse: toTesterClockResponse,
  }),
  businessRoute(listTesterMessagesEndpoint, {
    call: ({ scheduler }, { caller, query }) => scheduler.listTesterMessages({ caller, conversation_uuid: query.conversation_uuid, limit: query.limit }),
    toResponse: toTesterMessagesResponse,
  }),
];
