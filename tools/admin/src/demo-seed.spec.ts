import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { phoneLookupKey } from '@cmsg/dal';
import { parseSeedFile, resolveSeedTime } from '@cmsg/seed';

// tools/scripts/start.sh loads this file and prints a curl for Juan's phone with the demo token.
const demo = parseSeedFile(JSON.parse(readFileSync(join(__dirname, '../../seed/demo.json'), 'utf8')));
const [business] = demo.businesses;
const now = new Date();
const hoursAgo = (time: string) => (now.getTime() - resolveSeedTime(time, now).getTime()) / 3_600_000;

describe('tools/seed/demo.json', () => {
  it('is one valid business with the fixed demo token', () => {
    expect(demo.businesses).toHaveLength(1);
    expect(business).toMatchObject({ slug: 'demo', name: 'Demo Store', time_zone: 'America/Mexico_City' });
    expect(business.api_tokens.map((token) => token.token)).toEqual([`cmsg_${'deadbeef'.repeat(8)}`]);
  });

  it('has every kind of object the demo walks through', () => {
    expect(business.channels.map((channel) => channel.public_key)).toEqual(['demo-channel']);
    expect(business.ai_employees).toHaveLength(2);
    expect(business.tags.filter((tag) => tag.is_default)).toHaveLength(1);
    expect(business.mailbox_categories.map((category) => category.mailboxes.length)).toEqual([2, 2]);
    expect(business.templates.map((template) => [template.status, template.is_fake])).toEqual([
      ['approved', false],
      ['pending', false],
      ['approved', true],
    ]);
    expect(business.quick_replies.map((reply) => reply.actions.length)).toEqual([2, 0]);
    expect(business.webhooks).toHaveLength(1);
    expect(business.payment_profile).not.toBeNull();
  });

  it('has contacts for the open-window, closed-window, tester, username-only and pending-AI cases', () => {
    const byName = new Map(business.contacts.map((contact) => [contact.first_name ?? contact.chat_username, contact]));
    const juan = byName.get('Juan');
    expect(juan?.phone && phoneLookupKey(juan.phone)).toBe('5215512345678');
    expect(business.contacts.filter((contact) => contact.phone && phoneLookupKey(contact.phone) === '5215512345678')).toHaveLength(1);
    expect(Math.min(...(juan?.conversation.messages ?? []).filter((m) => m.is_from_customer).map((m) => hoursAgo(m.created_at)))).toBeLessThan(24);
    const carlos = byName.get('Carlos');
    expect(Math.min(...(carlos?.conversation.messages ?? []).map((m) => hoursAgo(m.created_at)))).toBeGreaterThan(24);
    expect(business.contacts.filter((contact) => contact.is_tester)).toHaveLength(1);
    expect(byName.get('ana.compras')).toMatchObject({ phone: null, chat_user_id: 'MX.1029384756' });
    expect(byName.get('María')?.conversation).toMatchObject({ inbox_status: 'pending', ai_employee: expect.any(String) });
  });
});
