import { assertUnreachable } from '@cmsg/errors';
import { applyTemplateStatus } from './apply-template-status.usecase';
import { applyUserPreference } from './apply-user-preference.usecase';
import type { ChatInboundRecord } from './chat-inbound-record';
import { ingestDeliveryStatus } from './ingest-delivery-status.usecase';
import { type InboxIngestDependencies, ingestInboundMessage } from './ingest-inbound-message.usecase';

/**
 * The chat-inbound topic's handler: one verified webhook event, safe to run again (deliveries are
 * at least once, and the provider repeats webhooks too).
 */
export class InboxIngest {
  constructor(private readonly dependencies: InboxIngestDependencies) {}

  async handle(record: ChatInboundRecord, attempt: number): Promise<void> {
    const { logger } = this.dependencies;
    switch (record.kind) {
      case 'message': {
        const result = await ingestInboundMessage(this.dependencies, record, attempt);
        const level = result.outcome === 'recorded' ? 'info' : 'warn';
        logger[level]({ phone_number_id: record.phone_number_id, provider_message_id: record.message.id, ...result }, 'inbound message ingested');
        return;
      }
      case 'status': {
        const outcome = await ingestDeliveryStatus(this.dependencies, record, attempt);
        logger[outcome === 'updated' || outcome === 'already_further' ? 'info' : 'warn'](
          { phone_number_id: record.phone_number_id, provider_message_id: record.status.id, status: record.status.status, outcome },
          'delivery status ingested',
        );
        return;
      }
      case 'template_status': {
        const result = await applyTemplateStatus(this.dependencies.templateStatuses, record);
        logger[result.outcome === 'updated' ? 'info' : 'warn'](
          { business_account_id: record.business_account_id, provider_template_id: record.update.message_template_id, event: record.update.event, ...result },
          'template status update ingested',
        );
        return;
      }
      case 'user_preference': {
        const { recordConsent, userPreferences } = this.dependencies;
        const result = await applyUserPreference({ ...userPreferences, recordConsent }, record);
        logger[result.outcome === 'recorded' ? 'info' : 'warn'](
          { phone_number_id: record.phone_number_id, category: record.preference.category, value: record.preference.value, ...result },
          'user preference ingested',
        );
        return;
      }
      default:
        return assertUnreachable(record, 'Unknown chat inbound record');
    }
  }
}
