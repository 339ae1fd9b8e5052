import type { EventFanOut, FanOutEvent } from '@cmsg/webhooks';

/** The fan-out port as the webhooks would see it: every call, in order; it can be made to fail. */
export class RecordingFanOut implements Pick<EventFanOut, 'fanOut' | 'fanOutMany'> {
  readonly calls: FanOutEvent[] = [];
  failing = false;
  /** Events whose fan-out fails, by id. */
  readonly failingFor = new Set<string>();

  async fanOut(event: FanOutEvent): Promise<number> {
    if (this.failing || this.failingFor.has(event._id)) throw new Error('webhook store unavailable');
    this.calls.push(event);
    return 0;
  }

  async fanOutMany(events: readonly FanOutEvent[]): Promise<number> {
    if (this.failing || events.some((event) => this.failingFor.has(event._id))) throw new Error('webhook store unavailable');
    this.calls.push(...events);
    return 0;
  }
}
