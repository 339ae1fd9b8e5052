import {
  type BroadcastTransition,
  cancelBroadcastEndpoint,
  createBroadcastEndpoint,
  getBroadcastEndpoint,
  listBroadcastRecipientsEndpoint,
  listBroadcastsEndpoint,
  pauseBroadcastEndpoint,
  previewBroadcastEndpoint,
  resumeBroadcastEndpoint,
  retryFailedBroadcastEndpoint,
} from '@cmsg/api-schemas';
import { toBroadcast, toBroadcastPreview, toBroadcastRecipient, toCreateBroadcastRequest } from '../mappers/broadcast.mapper';
import { type BusinessRoute, businessRoute } from './business-route';
import { operationIdFor } from './operation-id';

function transitionRoute(endpoint: typeof pauseBroadcastEndpoint, transition: BroadcastTransition): BusinessRoute {
  return businessRoute(endpoint, {
    call: ({ broadcasts }, { caller, params }) => broadcasts.changeBroadcastState({ caller, uuid: params.uuid, transition }),
    toResponse: toBroadcast,
  });
}

export const broadcastRoutes: readonly BusinessRoute[] = [
  businessRoute(createBroadcastEndpoint, {
    // A retry of the same Idempotency-Key that reaches the service again answers the broadcast it created.
    call: ({ broadcasts }, { caller, body, idempotencyKey }) => broadcasts.createBroadcast({ ...toCreateBroadcastRequest(caller, body), operation_id: operationIdFor('broadcast', caller, idempotencyKey) }),
    toResponse: toBroadcast,
  }),
  // Before /broadcasts/:uuid, which Express would otherwise match for /broadcasts/preview and answer 405.
  businessRoute(previewBroadcastEndpoint, {
    call: ({ broadcasts }, { caller, body }) => broadcasts.previewBroadcast(toCreateBroadcastRequest(caller, body)),
    toResponse: toBroadcastPreview,
  }),
  businessRoute(listBroadcastsEndpoint, {
    call: ({ broadcasts }, { caller, query }) => broadcasts.listBroadcasts({ caller, status: query.status, cursor: query.cursor, limit: query.limit }),
    toResponse: (response) => ({ items: response.items.map(toBroadcast), next_cursor: response.next_cursor, has_more: response.has_more }),
  }),
  businessRoute(getBroadcastEndpoint, {
    call: ({ broadcasts }, { caller, params }) => broadcasts.getBroadcast({ caller, uuid: params.uuid }),
    toResponse: toBroadcast,
  }),
  transitionRoute(pauseBroadcastEndpoint, 'pause'),
  transitionRoute(resumeBroadcastEndpoint, 'resume'),
  transitionRoute(cancelBroadcastEndpoint, 'cancel'),
  transitionRoute(retryFailedBroadcastEndpoint, 'retry_failed'),
  businessRoute(listBroadcastRecipientsEndpoint, {
    call: ({ broadcasts }, { caller, params, query }) =>
      broadcasts.listBroadcastRecipients({ caller, uuid: params.uuid, status: query.status, cursor: query.cursor, limit: query.limit }),
    toResponse: (response) => ({ items: response.items.map(toBroadcastRecipient), next_cursor: response.next_cursor, has_more: response.has_more }),
  }),
];
