import type { BroadcastAudienceEntity } from '@cmsg/dal';

/** POST /broadcasts (and /preview) as the use cases take it. */
export interface BroadcastDefinitionInput {
  name: string;
  /** The channel's public key. */
  channel: string;
  template: { uuid?: string; name?: string; language?: string };
  variables: { index: number; value: string }[];
  header: Record<string, unknown> | null;
  button_parameters: { index: number; sub_type: string; value: string }[];
  audience: { kind: 'filter'; filter: unknown } | { kind: 'contacts'; contact_ids: string[] } | { kind: 'file'; file_uuid: string };
  send_at?: string;
  max_per_second?: number;
  send_window?: { from: string; to: string };
}

export const MAX_AUDIENCE_CONTACTS = 1_000;

export type StoredAudience = BroadcastAudienceEntity;
