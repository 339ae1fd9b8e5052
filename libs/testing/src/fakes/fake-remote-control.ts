import type { AiRecord, AiRecordFilter, AiRule } from './fake-ai-server';
import type { ThroughputScope, ThroughputSettings } from './cloud-api-throughput';
import type { CloudApiRecord, CloudApiRecordFilter, CloudApiRule, RegisteredMedia } from './fake-cloud-api';
import type { FakeRuleBase } from './fake-rules';

/**
 * Steers a fake running in another process (a jest global setup, a benchmark) through its /_fake/
 * endpoints. Built from the same base URL the product gets (CHAT_API_BASE_URL / AI_BASE_URL).
 */
class FakeRemoteControl<Entry, Filter extends object, Rule extends FakeRuleBase> {
  readonly origin: string;

  constructor(baseUrl: string) {
    this.origin = new URL(baseUrl).origin;
  }

  async requests(filter: Filter = {} as Filter): Promise<Entry[]> {
    const query = new URLSearchParams(
      Object.entries(filter)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]): [string, string] => [key, String(value)]),
    );
    const answer = (await this.call('GET', `requests?${query.toString()}`)) as { requests: Entry[] };
    return answer.requests;
  }

  async addRules(...rules: Rule[]): Promise<string[]> {
    const answer = (await this.call('POST', 'rules', rules)) as { ids: string[] };
    return answer.ids;
  }

  async removeRule(id: string): Promise<void> {
    await this.call('DELETE', `rules/${encodeURIComponent(id)}`);
  }

  async clearRules(): Promise<void> {
    await this.call('DELETE', 'rules');
  }

  async reset(): Promise<void> {
    await this.call('POST', 'reset');
  }

  protected async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.origin}/_fake/${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} /_fake/${path}: HTTP ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }
}

export class FakeCloudApiRemote extends FakeRemoteControl<CloudApiRecord, CloudApiRecordFilter, CloudApiRule> {
  async registerMedia(input: { bytes: Buffer; mime_type: string; id?: string }): Promise<RegisteredMedia> {
    return (await this.call('POST', 'media', {
      mime_type: input.mime_type,
      data_base64: input.bytes.toString('base64'),
      ...(input.id ? { id: input.id } : {}),
    })) as RegisteredMedia;
  }

  /** As FakeCloudApi.setThroughput: `'*'` for every number without its own limit, null to remove a limit. */
  async setThroughput(phoneNumberId: ThroughputScope, perSecond: number | null): Promise<ThroughputSettings> {
    const body = phoneNumberId === '*' ? { per_second: perSecond } : { phone_number_id: phoneNumberId, per_second: perSecond };
    return (await this.call('PUT', 'throughput', body)) as ThroughputSettings;
  }

  async throughputSettings(): Promise<ThroughputSettings> {
    return (await this.call('GET', 'throughput')) as ThroughputSettings;
  }

  /** Polls until `count` accepted sends match, for work that happens in the background. */
  async waitForMessages(count: number, filter: Omit<CloudApiRecordFilter, 'kind'> = {}, timeoutMs = 10_000): Promise<CloudApiRecord[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const sent = (await this.requests({ ...filter, kind: 'message' })).filter((record) => record.status === 200);
      if (sent.length >= count) return sent;
      if (Date.now() > deadline) throw new Error(`FakeCloudApi: ${sent.length} of ${count} messages after ${timeoutMs} ms (${JSON.stringify(filter)})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export class FakeAiRemote extends FakeRemoteControl<AiRecord, AiRecordFilter, AiRule> {}
