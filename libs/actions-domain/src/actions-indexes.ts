import { ActionGroupModel } from './action-group/action-group.model';
import { ActionGroupDecisionModel } from './action-group/action-group-decision.model';
import { WebhookDeliveryClaimModel, WebhookDeliveryModel } from './webhooks/webhook-delivery.model';

/** The collections this domain owns; their indexes are created once at service start (autoIndex is off). */
export async function ensureActionsIndexes(): Promise<void> {
  await ActionGroupModel.createIndexes();
  await ActionGroupDecisionModel.createIndexes();
  await WebhookDeliveryModel.createIndexes();
  await WebhookDeliveryClaimModel.createIndexes();
}
