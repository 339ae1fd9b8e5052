/*
 * Every model of the data layer, one folder per collection (docs/data-layer.md). ALL_MODELS is what
 * ensureIndexes() creates indexes for. Models stay inside libs/dal: the other libraries use the
 * repositories.
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
import { WebhookEndpointModel } from './webhook-endpoint/webhook-endpoint.schema';
import { PaymentModel } from './payment/payment.schema';
import { FileModel } from './file/file.schema';
import { ScheduledMessageModel } from './scheduled-message/scheduled-message.schema';
import { ActionGroupModel } from './action-group/action-group.schema';
import { WebhookDeliveryModel } from './webhook-delivery/webhook-delivery.schema';
import { EventModel } from './event/event.schema';
import { ContactErasureModel } from './contact-erasure/contact-erasure.schema';
import { BroadcastModel } from './broadcast/broadcast.schema';
import { BroadcastRecipientModel } from './broadcast-recipient/broadcast-recipient.schema';

export {
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
  WebhookEndpointModel,
  PaymentModel,
  FileModel,
  ScheduledMessageModel,
};

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
  WebhookEndpointModel,
  PaymentModel,
  FileModel,
  ScheduledMessageModel,
  ActionGroupModel,
  WebhookDeliveryModel,
  EventModel,
  ContactErasureModel,
  BroadcastModel,
  BroadcastRecipientModel,
] as const;
