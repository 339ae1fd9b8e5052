/*
 * Every model and entity type of the data layer, one folder per collection (docs/data-layer.md).
 * ALL_MODELS is what ensureIndexes() creates indexes for.
 */
import { BusinessModel } from './business/business.schema';
import { ApiTokenModel } from './api-token/api-token.schema';
import { ChannelModel } from './channel/channel.schema';
import { ContactModel } from './contact/contact.schema';
import { ConversationModel } from './conversation/conversation.schema';
import { MessageModel } from './message/message.schema';
import { TimelineEventModel } from './timeline-event/timeline-event.schema';
import { TagModel } from './tag/tag.schema';
import { MailboxCategoryModel } from './mailbox-category/mailbox-category.schema';
import { MailboxModel } from './mailbox/mailbox.schema';
import { AiEmployeeModel } from './ai-employee/ai-employee.schema';
import { TemplateModel } from './template/template.schema';
import { QuickReplyModel } from './quick-reply/quick-reply.schema';
import { WebhookModel } from './webhook/webhook.schema';
import { PaymentModel } from './payment/payment.schema';
import { ScheduledMessageModel } from './scheduled-message/scheduled-message.schema';
import { WalletLedgerModel } from './wallet-ledger/wallet-ledger.schema';
import { ConversationStateLogModel } from './conversation-state-log/conversation-state-log.schema';
import { ConversationOutboxModel } from './conversation-outbox/conversation-outbox.schema';
import { ConversationOutboxClaimModel } from './conversation-outbox-claim/conversation-outbox-claim.schema';

export { BusinessModel };
export type { BusinessEntity } from './business/business.entity';
export { ApiTokenModel };
export type { ApiTokenEntity } from './api-token/api-token.entity';
export { ChannelModel };
export type { ChannelEntity } from './channel/channel.entity';
export { ContactModel };
export type { ContactEntity } from './contact/contact.entity';
export { ConversationModel };
export type { ConversationEntity } from './conversation/conversation.entity';
export { MessageModel };
export type { MessageEntity } from './message/message.entity';
export { TimelineEventModel };
export type { TimelineEventEntity } from './timeline-event/timeline-event.entity';
export { TagModel };
export type { TagEntity } from './tag/tag.entity';
export { MailboxCategoryModel };
export type { MailboxCategoryEntity } from './mailbox-category/mailbox-category.entity';
export { MailboxModel };
export type { MailboxEntity } from './mailbox/mailbox.entity';
export { AiEmployeeModel };
export type { AiEmployeeEntity } from './ai-employee/ai-employee.entity';
export { TemplateModel };
export type { TemplateEntity } from './template/template.entity';
export { QuickReplyModel };
export type { QuickReplyEntity } from './quick-reply/quick-reply.entity';
export { WebhookModel };
export type { WebhookEntity } from './webhook/webhook.entity';
export { PaymentModel };
export type { PaymentEntity } from './payment/payment.entity';
export { WalletLedgerModel };
export type { WalletLedgerEntity } from './wallet-ledger/wallet-ledger.entity';
export { ConversationStateLogModel };
export type { ConversationStateLogEntity } from './conversation-state-log/conversation-state-log.entity';
export { ConversationOutboxModel };
export type { ConversationOutboxEntity } from './conversation-outbox/conversation-outbox.entity';
export { ConversationOutboxClaimModel };
export type { ConversationOutboxClaimEntity } from './conversation-outbox-claim/conversation-outbox-claim.entity';

export const ALL_MODELS = [
  BusinessModel,
  ApiTokenModel,
  ChannelModel,
  ContactModel,
  ConversationModel,
  MessageModel,
  TimelineEventModel,
  TagModel,
  MailboxCategoryModel,
  MailboxModel,
  AiEmployeeModel,
  TemplateModel,
  QuickReplyModel,
  WebhookModel,
  PaymentModel,
  ScheduledMessageModel,
  WalletLedgerModel,
  ConversationStateLogModel,
  ConversationOutboxModel,
  ConversationOutboxClaimModel,
] as const;
