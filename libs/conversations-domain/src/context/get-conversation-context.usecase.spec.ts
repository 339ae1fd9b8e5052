import { businessScope } from '@cmsg/dal';
import { businessRow, InMemoryBusinesses } from '../testing/in-memory-businesses';
import { InMemoryConversationLookup } from '../testing/in-memory-conversations';
import { InMemorySchedules, scheduleRow } from '../testing/in-memory-schedules';
import { getConversationContext } from './get-conversation-context.usecase';

describe('getConversationContext', () => {
  const b1 = businessScope('b1');
  const REAL_NOW = Date.UTC(2026, 10, 29, 12);
  const hoursAgo = (hours: number) => new Date(REAL_NOW - hours * 3_600_000);
  let lookup: InMemoryConversationLookup;
  let businesses: InMemoryBusinesses;
  let schedules: InMemorySchedules;
  const context = (uuid: string) => getConversationContext({ lookup, businesses, schedules }, b1, { uuid }, REAL_NOW);

  beforeEach(() => {
    lookup = new InMemoryConversationLookup();
    businesses = new InMemoryBusinesses();
    schedules = new InMemorySchedules();
    businesses.rows.push(businessRow({ _id: 'b1', vision_wallet_tokens: 700, tester_clock_offset_ms: 48 * 3_600_000 }));
    lookup.addContactWithConversation(
      { _id: 'ana', business_id: 'b1', channel_id: 'ch1', phone: '+5215511111111' },
      { last_inbound_at: hoursAgo(1), last_inbound_message_id: 'm9', ai_employee_id: 'ai-olga', inbox_status: 'pending', media_awaiting_transcription: 1 },
    );
    lookup.addContactWithConversation({ _id: 'tess', business_id: 'b1', channel_id: 'ch1' }, { is_tester: true, last_inbound_at: hoursAgo(1) });
    lookup.addContactWithConversation({ _id: 'cy', business_id: 'b2', channel_id: 'ch9' });
    schedules.rows.push(scheduleRow({ _id: 's1', business_id: 'b1', conversation_id: 'conv-ana' }));
  });

  it('answers what the actions-runner checks: window, owner, status, media awaiting, vision wallet, pending schedule', async () => {
    expect(await context('conv-ana')).toEqual({
      uuid: 'conv-ana',
      contact_uuid: 'ana',
      is_tester: false,
      window_status: 'open',
      ai_employee_uuid: 'ai-olga',
      inbox_status: 'pending',
      media_awaiting_transcription: 1,
      vision_wallet_tokens: 700,
      now: new Date(REAL_NOW).toISOString(),
      pending_schedule_uuid: 's1',
      contact_phone: '+5215511111111',
      last_inbound_message_uuid: 'm9',
    });
  });

  it("sees a tester conversation at the business's virtual now", async () => {
    expect(await context('conv-tess')).toMatchObject({ is_tester: true, window_status: 'closed', now: new Date(REAL_NOW + 48 * 3_600_000).toISOString(), pending_schedule_uuid: undefined });
  });

  it("answers CONVERSATION_NOT_FOUND for another business's conversation, FETCH_FAILED when the business is gone", async () => {
    await expect(context('conv-cy')).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
    businesses.rows.length = 0;
    await expect(context('conv-ana')).rejects.toMatchObject({ code: 'FETCH_FAILED' });
  });
});
