import { listChannelsEndpoint, listContactsEndpoint, listConversationsEndpoint, listTesterContactsEndpoint } from '@cmsg/api-schemas';
import { toChannelListResponse } from '../mappers/channel-list.mapper';
import { toContactListResponse } from '../mappers/contact-list.mapper';
import { toConversationListResponse } from '../mappers/conversation-list.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

export const listRoutes: readonly BusinessRoute[] = [
  businessRoute(listConversationsEndpoint, {
    call: ({ conversations }, { caller, query }) =>
      conversations.listConversations({
        caller,
        cursor: query.cursor,
        limit: query.limit,
        order: query.order,
        inbox_status: query.inbox_status,
        tags: query.tag ?? [],
        mailbox: query.mailbox,
        ai_employee: query.ai_employee,
        window: query.window,
        is_tester: query.is_tester,
        updated_since: query.updated_since,
      }),
    toResponse: toConversationListResponse,
  }),
  businessRoute(listContactsEndpoint, {
    call: ({ conversations }, { caller, query }) => conversations.listContacts({ caller, ...query, testers_only: false }),
    toResponse: toContactListResponse,
  }),
  businessRoute(listTesterContactsEndpoint, {
    call: ({ conversations }, { caller, query }) => conversations.listContacts({ caller, ...query, testers_only: true }),
    toResponse: toContactListResponse,
  }),
  businessRoute(listChannelsEndpoint, {
    call: ({ conversations }, { caller }) => conversations.listChannels({ caller }),
    toResponse: toChannelListResponse,
  }),
];
