import { MAX_CHAT_WEBHOOK_BODY_BYTES, UNSCOPED_PATHS } from '@cmsg/api-schemas';
import { assertWebhookSignature, WEBHOOK_SIGNATURE_HEADER, inboundEventsOf, webhookPayloadSchema, webhookVerifyChallenge } from '@cmsg/chat-platform';
import { CatalogError } from '@cmsg/errors';
import type { Logger } from '@cmsg/platform';
import express, { type Express, type RequestHandler } from 'express';
import { methodNotAllowedMiddleware } from '../middleware/fallback.middleware';
import { type ChatInboundPublisher, chatInboundMessagesOf } from './chat-inbound-publisher';

export interface ChatWebhookDependencies {
  /** CHAT_APP_SECRET: the key of X-Hub-Signature-256. */
  appSecret: string;
  /** CHAT_VERIFY_TOKEN: the subscription handshake's shared token. */
  verifyToken: string;
  publisher: ChatInboundPublisher;
  logger: Logger;
}

/**
 * CONTRACT 7, outside the business scope (no API token): the subscription handshake, and event
 * delivery acknowledged as soon as the events are in Kafka. The signature is checked over the raw
 * bytes, so this route reads its own body before any JSON parser could touch it.
 */
export function registerChatWebhookRoutes(app: Express, dependencies: ChatWebhookDependencies): void {
  app
    .route(UNSCOPED_PATHS.chatWebhook)
    .get((req, res) => {
      const challenge = webhookVerifyChallenge(req.query as Record<string, unknown>, dependencies.verifyToken);
      if (challenge === null) throw new CatalogError('INVALID_REQUEST', 'hub.mode must be subscribe and hub.verify_token must match.', { httpStatus: 403 });
      res.status(200).type('text/plain').send(challenge);
    })
    .post(rawBody(), async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      assertWebhookSignature(body, req.get(WEBHOOK_SIGNATURE_HEADER), dependencies.appSecret);
      const payload = parsePayload(body, dependencies.logger);
      const events = payload ? inboundEventsOf(payload) : [];
      try {
        await dependencies.publisher.publish(chatInboundMessagesOf(events, new Date()));
      } catch (error) {
        // Not acknowledged: the provider delivers the webhook again later.
        throw new CatalogError('SERVICE_UNAVAILABLE', 'The webhook could not be queued; deliver it again later.', { cause: error });
      }
      res.status(200).json({ received: events.length });
    })
    .all(methodNotAllowedMiddleware(['get', 'post']));
}

/**
 * A signed payload that is not a webhook we understand is acknowledged and logged: refusing it
 * would only make the provider retry it for days.
 */
function parsePayload(body: Buffer, logger: Logger) {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    logger.error({ bytes: body.length }, 'signed chat webhook is not JSON; acknowledged and dropped');
    return undefined;
  }
  const parsed = webhookPayloadSchema.safeParse(json);
  if (!parsed.success) {
    logger.error({ issues: parsed.error.issues.slice(0, 5) }, 'signed chat webhook does not match the payload schema; acknowledged and dropped');
    return undefined;
  }
  return parsed.data;
}

function rawBody(): RequestHandler {
  const parse = express.raw({ type: () => true, limit: MAX_CHAT_WEBHOOK_BODY_BYTES });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error === undefined) return next();
      const type = (error as { type?: unknown }).type;
      if (type === 'entity.too.large') return next(new CatalogError('INVALID_REQUEST', `The webhook body is larger than ${MAX_CHAT_WEBHOOK_BODY_BYTES} bytes.`, { httpStatus: 413 }));
      return next(new CatalogError('INVALID_REQUEST', 'The webhook body could not be read.'));
    });
}
