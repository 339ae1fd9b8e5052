import { X_WEBHOOK_SIGNATURE_HEADER, standardWebhookSignatureHeader, xWebhookSignatureHeader } from './webhook-signatures';

/** The headers of one attempt: Standard Webhooks (`webhook-id`, `-timestamp`, `-signature`) and CONTRACT 4's. */
export function deliveryHeaders(eventId: string, body: string, secrets: readonly string[], now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'cmsg-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardWebhookSignatureHeader(secrets, eventId, timestamp, body),
    [X_WEBHOOK_SIGNATURE_HEADER]: xWebhookSignatureHeader(secrets, body, timestamp),
  };
}
