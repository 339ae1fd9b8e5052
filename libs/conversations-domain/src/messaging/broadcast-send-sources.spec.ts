import { businessScope } from '@cmsg/dal';
import { channelRow } from '../testing/in-memory-channels';
import { InMemorySendWorld } from '../testing/in-memory-send-world';
import { templateRow } from '../templates/in-memory-template-stores';
import { broadcastSendSources } from './broadcast-send-sources';

describe('broadcastSendSources', () => {
  const b1 = businessScope('b1');
  const b2 = businessScope('b2');
  let clock: number;
  let reads: string[];
  let world: InMemorySendWorld;

  function sources() {
    const stored = world.dependencies();
    return broadcastSendSources(
      {
        templates: {
          findById: (scope, id) => (reads.push(`template ${scope.businessId}/${id}`), stored.templates.findById(scope, id)),
          findByNameAndLanguage: (scope, name, language) => (reads.push(`template ${name}`), stored.templates.findByNameAndLanguage(scope, name, language)),
        },
        channels: { findById: (scope, id) => (reads.push(`channel ${scope.businessId}/${id}`), stored.channels.findById(scope, id)) },
      },
      { maxAgeMs: 1_000, now: () => clock },
    );
  }

  beforeEach(() => {
    clock = 0;
    reads = [];
    world = new InMemorySendWorld(0);
    world.channels.push(channelRow({ _id: 'ch1', business_id: 'b1', public_key: 'main' }), channelRow({ _id: 'ch1', business_id: 'b2', public_key: 'other' }));
    world.templates.push(templateRow('b1', 'tpl-1', { channel_id: 'ch1' }));
  });

  it('reads a template and a channel once per second for every send of the broadcast', async () => {
    const shared = sources();
    for (let send = 0; send < 80; send += 1) {
      expect(await shared.templates.findById(b1, 'tpl-1')).toMatchObject({ _id: 'tpl-1' });
      expect(await shared.channels.findById(b1, 'ch1')).toMatchObject({ _id: 'ch1', public_key: 'main' });
      clock += 12;
    }
    expect(reads).toEqual(['template b1/tpl-1', 'channel b1/ch1']);
    clock = 1_000;
    await shared.templates.findById(b1, 'tpl-1');
    expect(reads).toHaveLength(3);
  });

  it('applies a change within that second: a template rejected meanwhile is read as rejected', async () => {
    const shared = sources();
    expect(await shared.templates.findById(b1, 'tpl-1')).toMatchObject({ status: 'approved' });
    world.templates[0] = { ...world.templates[0]!, status: 'rejected' };
    expect(await shared.templates.findById(b1, 'tpl-1')).toMatchObject({ status: 'approved' });
    clock = 1_000;
    expect(await shared.templates.findById(b1, 'tpl-1')).toMatchObject({ status: 'rejected' });
  });

  it('keeps businesses apart: the same id in another business is its own read', async () => {
    const shared = sources();
    expect(await shared.channels.findById(b1, 'ch1')).toMatchObject({ public_key: 'main' });
    expect(await shared.channels.findById(b2, 'ch1')).toMatchObject({ public_key: 'other' });
    expect(await shared.templates.findById(b2, 'tpl-1')).toBeNull();
    expect(reads).toEqual(['channel b1/ch1', 'channel b2/ch1', 'template b2/tpl-1']);
  });

  it('reads templates by name every time (broadcasts name theirs by uuid)', async () => {
    const shared = sources();
    await shared.templates.findByNameAndLanguage(b1, 'order_update', 'es');
    await shared.templates.findByNameAndLanguage(b1, 'order_update', 'es');
    expect(reads).toEqual(['template order_update', 'template order_update']);
  });
});
