import type { BusinessScope, ChannelEntity, TemplateMatch } from '@cmsg/dal';
import { type TemplateStatusPorts, applyTemplateStatus } from './apply-template-status.usecase';
import type { TemplateStatusRecord } from './chat-inbound-record';

interface StoredTemplate {
  id: string;
  business_id: string;
  channel_id: string;
  name: string;
  language: string;
  provider_template_id: string | null;
  status: string;
}

function channel(business: string, id: string, account: string | null): ChannelEntity {
  return { _id: id, business_id: business, public_key: id, name: id, phone: '', phone_number_id: `pn-${id}`, access_token: '', default_scheduled_template: null, status: 'connected', business_account_id: account, max_messages_per_second: 80, messaging_limit: null };
}

class InMemoryTemplateStatusPorts implements TemplateStatusPorts {
  readonly channelRows = [channel('b1', 'c1', 'waba-1'), channel('b2', 'c2', 'waba-2'), channel('b3', 'c3', null)];
  readonly templateRows: StoredTemplate[] = [
    { id: 't1', business_id: 'b1', channel_id: 'c1', name: 'order_update', language: 'es', provider_template_id: '111', status: 'approved' },
    { id: 't2', business_id: 'b1', channel_id: 'c1', name: 'welcome', language: 'es', provider_template_id: null, status: 'approved' },
    { id: 't3', business_id: 'b2', channel_id: 'c2', name: 'welcome', language: 'es', provider_template_id: null, status: 'approved' },
    { id: 't4', business_id: 'b3', channel_id: 'c3', name: 'welcome', language: 'es', provider_template_id: null, status: 'approved' },
  ];

  channels = {
    findByBusinessAccountIdAcrossBusinesses: async (account: string) => this.channelRows.filter((row) => row.business_account_id === account),
  };

  templates = {
    setStatusOnChannel: async (scope: BusinessScope, channelId: string, match: TemplateMatch, status: string) => {
      const rows = this.templateRows.filter(
        (row) =>
          row.business_id === scope.businessId &&
          row.channel_id === channelId &&
          ('providerTemplateId' in match ? row.provider_template_id === match.providerTemplateId : row.provider_template_id === null && row.name === match.name && row.language === match.language),
      );
      rows.forEach((row) => (row.status = status));
      return rows.length;
    },
  };

  statusOf(id: string): string | undefined {
    return this.templateRows.find((row) => row.id === id)?.status;
  }
}

function update(account: string, event: string, id: string, name: string, language = 'es'): TemplateStatusRecord {
  return {
    kind: 'template_status',
    business_account_id: account,
    update: { event, message_template_id: id, message_template_name: name, message_template_language: language, reason: null },
    received_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('applyTemplateStatus', () => {
  let ports: InMemoryTemplateStatusPorts;
  beforeEach(() => {
    ports = new InMemoryTemplateStatusPorts();
  });

  it.each([
    ['APPROVED', 'approved'],
    ['REJECTED', 'rejected'],
    ['PAUSED', 'paused'],
    ['DISABLED', 'disabled'],
  ])('%s sets the status %s on the template of that provider id', async (event, status) => {
    ports.templateRows[0]!.status = 'pending';
    expect(await applyTemplateStatus(ports, update('waba-1', event, '111', 'renamed'))).toEqual({ outcome: 'updated', status, templates: 1 });
    expect(ports.statusOf('t1')).toBe(status);
  });

  it('matches by name and language a template the seed gave no provider id, in that account only', async () => {
    expect(await applyTemplateStatus(ports, update('waba-1', 'PAUSED', '999', 'welcome'))).toEqual({ outcome: 'updated', status: 'paused', templates: 1 });
    expect([ports.statusOf('t2'), ports.statusOf('t3'), ports.statusOf('t4')]).toEqual(['paused', 'approved', 'approved']);
  });

  it('does not take a template with another provider id by its name', async () => {
    expect(await applyTemplateStatus(ports, update('waba-1', 'PAUSED', '222', 'order_update'))).toEqual({ outcome: 'unknown_template' });
    expect(ports.statusOf('t1')).toBe('approved');
  });

  it('ignores other events, unknown accounts and unknown templates, changing nothing', async () => {
    expect(await applyTemplateStatus(ports, update('waba-1', 'PENDING_DELETION', '111', 'order_update'))).toEqual({ outcome: 'ignored_event' });
    expect(await applyTemplateStatus(ports, update('waba-9', 'PAUSED', '111', 'order_update'))).toEqual({ outcome: 'unknown_account' });
    expect(await applyTemplateStatus(ports, update('waba-2', 'PAUSED', '111', 'order_update'))).toEqual({ outcome: 'unknown_template' });
    expect(ports.templateRows.map((row) => row.status)).toEqual(['approved', 'approved', 'approved', 'approved']);
  });
});
