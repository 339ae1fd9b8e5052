import { AiEmployeeRepository } from './ai-employee/ai-employee.repository';
import { ApiTokenRepository } from './api-token/api-token.repository';
import { BusinessRepository } from './business/business.repository';
import { ChannelRepository } from './channel/channel.repository';
import { ContactRepository } from './contact/contact.repository';
import { ConversationRepository } from './conversation/conversation.repository';
import { MailboxCategoryRepository } from './mailbox-category/mailbox-category.repository';
import { MailboxRepository } from './mailbox/mailbox.repository';
import { MessageRepository } from './message/message.repository';
import { PaymentRepository } from './payment/payment.repository';
import { QuickReplyRepository } from './quick-reply/quick-reply.repository';
import { TagRepository } from './tag/tag.repository';
import { TemplateRepository } from './template/template.repository';
import type { WebhookEndpointListVersions } from './webhook-endpoint/webhook-endpoint-list-versions';
import { WebhookEndpointRepository } from './webhook-endpoint/webhook-endpoint.repository';

/**
 * The repositories a seed load (libs/seed, `seedDatabase`) writes through, over the default
 * mongoose connection. `endpointListVersions` is bumped when a business's webhook endpoints are
 * written, so the services that keep endpoint lists in memory fan the next event out to the seeded
 * ones (docs/webhooks.md, Endpoint list cache).
 */
export function seedStoresOverMongo(endpointListVersions: Pick<WebhookEndpointListVersions, 'bump'>) {
  return {
    businesses: new BusinessRepository(),
    apiTokens: new ApiTokenRepository(),
    channels: new ChannelRepository(),
    aiEmployees: new AiEmployeeRepository(),
    tags: new TagRepository(),
    mailboxCategories: new MailboxCategoryRepository(),
    mailboxes: new MailboxRepository(),
    templates: new TemplateRepository(),
    quickReplies: new QuickReplyRepository(),
    webhookEndpoints: new WebhookEndpointRepository(endpointListVersions),
    contacts: new ContactRepository(),
    conversations: new ConversationRepository(),
    messages: new MessageRepository(),
    payments: new PaymentRepository(),
  };
}
