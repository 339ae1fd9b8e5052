import type { BusinessEntity } from '@cmsg/dal';
import { BusinessSlugs } from '../business-slugs';
import { EventRecorder } from '../event-recorder';
import { InMemoryRecorderStores } from './in-memory-recorder-stores';
import { RecordingBus } from './recording-bus';
import { RecordingFanOut } from './recording-fan-out';

/** The slug every business has in an in-memory recorder's events. */
export const IN_MEMORY_BUSINESS_SLUG = 'acme';

/** An EventRecorder over in-memory stores, a recording fan-out and a recording bus. */
export function inMemoryRecorder(): { recorder: EventRecorder; stores: InMemoryRecorderStores; fanOut: RecordingFanOut; bus: RecordingBus } {
  const stores = new InMemoryRecorderStores();
  const fanOut = new RecordingFanOut();
  const bus = new RecordingBus();
  const slugs = new BusinessSlugs({ findById: async () => ({ slug: IN_MEMORY_BUSINESS_SLUG }) as BusinessEntity });
  return { recorder: new EventRecorder({ stores, fanOut, bus, slugs }), stores, fanOut, bus };
}
