import type { ActionGroupEntity, BusinessRepository } from '@cmsg/dal';
import { businessScope } from '@cmsg/dal';
import type { EventFanOut, FanOutEvent } from '@cmsg/webhooks';
import type { WebhookEvent } from './webhook-events';

/** A business's slug is read once in this long (the envelope names the business by it). */
const SLUG_CACHE_MS = 60_000;

/**
 * `action.failed` and `action_group.finished` as CONTRACT 9.2 events, fanned out to the business's
 * webhook endpoints. Until the event recorder (issue 13, piece "events") records them from the
 * action group's outbox, this builds the event from the group and gives it sequence 0.
 * SEAM for the recorder: ExecuteActionGroup calls `enqueue` here; replace this class with one that
 * records the entry (events document with the conversation's sequence, then fan-out) and nothing
 * else changes; event ids stay those of webhook-events.ts.
 */
export class ActionGroupEventFanOut {
  private readonly slugs = new Map<string, { slug: string; until: number }>();

  constructor(
    private readonly fanOut: EventFanOut,
    private readonly businesses: Pick<BusinessRepository, 'findById'>,
  ) {}

  async enqueue(group: Pick<ActionGroupEntity, 'business_id' | 'conversation_id'>, event: WebhookEvent, now: Date): Promise<number> {
    const recorded: FanOutEvent = {
      _id: event.id,
      business_id: group.business_id,
      business_slug: await this.slugOf(group.business_id, now),
      conversation_id: group.conversation_id,
      sequence: 0,
      type: event.type,
      data: event.data,
      created_at: new Date(event.created_at),
    };
    return this.fanOut.fanOut(recorded);
  }

  private async slugOf(businessId: string, now: Date): Promise<string> {
    const cached = this.slugs.get(businessId);
    if (cached && cached.until > now.getTime()) return cached.slug;
    const business = await this.businesses.findById(businessScope(businessId));
    if (!business) throw new Error(`business ${businessId} of an action group was not found`);
    this.slugs.set(businessId, { slug: business.slug, until: now.getTime() + SLUG_CACHE_MS });
    return business.slug;
  }
}
