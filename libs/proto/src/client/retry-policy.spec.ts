import { readMethodsByService } from './retry-policy';
import { channelServiceConfig } from './service-config';

describe('read methods (idempotency_level = NO_SIDE_EFFECTS in the .proto files)', () => {
  it('are the reads docs/grpc.md lists as safe to retry', () => {
    expect(Object.fromEntries(readMethodsByService())).toEqual({
      'cmsg.conversations.v1.ConversationsService': ['AuthenticateToken', 'GetConversationStatus', 'ListConversations', 'ListContacts', 'GetContact', 'GetContactEligibility', 'SearchContacts', 'ListContactAttributes', 'ListChannels', 'GetConversationTimeline', 'ListEvents', 'GetEvent', 'ListTemplates', 'GetTemplate'],
      'cmsg.conversations.v1.BroadcastsService': ['PreviewBroadcast', 'GetBroadcast', 'ListBroadcasts', 'ListBroadcastRecipients'],
      'cmsg.conversations.v1.ConversationActionsService': ['ResolveConversation', 'GetConversationContext', 'GetRecentTimeline', 'ResolveAiEmployee'],
      'cmsg.actions.v1.ActionsService': ['GetActionGroup'],
      'cmsg.files.v1.FilesService': ['DownloadContent'],
      'cmsg.scheduler.v1.SchedulerService': ['GetScheduledMessage', 'ListTesterMessages'],
      'cmsg.webhooks.v1.WebhookEndpointsService': ['ListWebhookEndpoints', 'GetWebhookEndpoint', 'ListWebhookDeliveries'],
    });
  });

  it('carry a retry policy on UNAVAILABLE in the service config, which balances round_robin; a service without reads gets none', () => {
    expect(JSON.parse(channelServiceConfig('cmsg.actions.v1.ActionsService'))).toEqual({
      loadBalancingConfig: [{ round_robin: {} }],
      methodConfig: [
        {
          name: [{ service: 'cmsg.actions.v1.ActionsService', method: 'GetActionGroup' }],
          retryPolicy: { maxAttempts: 4, initialBackoff: '0.1s', maxBackoff: '1s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE'] },
        },
      ],
    });
    expect(JSON.parse(channelServiceConfig('grpc.health.v1.Health'))).toEqual({ loadBalancingConfig: [{ round_robin: {} }], methodConfig: [] });
  });
});
