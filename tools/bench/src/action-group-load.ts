import { randomUUID } from 'node:crypto';
import { type ApiClient, type BusinessSeedInput, minutesAgo, uniquePhone } from '@cmsg/testing';
import mongoose from 'mongoose';

/**
 * Action groups submitted through the public API at a fixed rate, and read back from MongoDB: the
 * load of the action-groups benchmark, also run beside a broadcast by the broadcasts benchmark.
 */

export const ACTIONS_PER_GROUP = 5;

/** The text of group `sequence`'s send, as the fake Cloud API records it. */
export function liveText(sequence: number): string {
  return `benchmark message ${sequence}`;
}

/** The group sequence a text sent by `groupFor` carries; undefined for any other text. */
export function sequenceOfLiveText(text: string): number | undefined {
  const match = /^benchmark message (\d+)$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Five non-AI actions: a tag, a note, a mailbox, a text send to the fake Cloud API, a status. */
export function groupFor(conversationUuid: string, sequence: number) {
  return {
    conversation: { uuid: conversationUuid },
    actions: [
      { type: sequence % 2 === 0 ? 'assign_label' : 'remove_label', tags: [{ name: 'bench' }] },
      { type: 'context_note', note: `benchmark group ${sequence}` },
      { type: 'assign_mailbox', mailbox: { name: sequence % 2 === 0 ? 'Even' : 'Odd' } },
      { type: 'send_message', text: liveText(sequence) },
      { type: 'mark_pending' },
    ],
  };
}

/**
 * What `groupFor` names (the tag, the mailboxes) and `conversations` contacts whose customer wrote
 * 10 minutes ago (the 24 h window is open, so text sends are allowed); answers their conversations.
 */
export function seedActionGroupTargets(seed: BusinessSeedInput, conversations: number, firstName = 'Bench'): string[] {
  seed.tags = [...(seed.tags ?? []), { uuid: randomUUID(), name: 'bench', color: '#888' }];
  seed.mailbox_categories = [
    ...(seed.mailbox_categories ?? []),
    { uuid: randomUUID(), name: 'Bench', mailboxes: [{ uuid: randomUUID(), name: 'Even' }, { uuid: randomUUID(), name: 'Odd' }] },
  ];
  const uuids: string[] = [];
  const contacts = Array.from({ length: conversations }, (_, index) => {
    const uuid = randomUUID();
    uuids.push(uuid);
    return {
      uuid: randomUUID(),
      channel: seed.channels![0]!.public_key,
      first_name: firstName,
      last_name: `#${index}`,
      phone: uniquePhone(),
      conversation: { uuid, messages: [{ uuid: randomUUID(), is_from_customer: true, body: 'hi', content_type: 'text' as const, created_at: minutesAgo(10) }] },
    };
  });
  seed.contacts = [...(seed.contacts ?? []), ...contacts];
  return uuids;
}

export interface Submission {
  uuid: string;
  /** The group's sequence number (its text is `liveText(sequence)`). */
  sequence: number;
  sentAt: number;
  acceptedAt: number;
}

export interface SubmissionRun {
  accepted: Submission[];
  refused: number;
  submitted: number;
  startedAt: number;
  windowEnd: number;
}

/** Open loop: one group every 1000 / groupsPerSecond ms whatever the answers, for the duration. */
export async function submitAtFixedRate(api: ApiClient, conversations: readonly string[], groupsPerSecond: number, durationS: number, offset: number): Promise<SubmissionRun> {
  const accepted: Submission[] = [];
  let refused = 0;
  const total = Math.round(groupsPerSecond * durationS);
  const startedAt = Date.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index += 1) {
    const due = startedAt + (index * 1000) / groupsPerSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sequence = offset + index;
    const conversation = conversations[sequence % conversations.length]!;
    const sentAt = Date.now();
    inFlight.push(
      api.post('/conversation/actions', groupFor(conversation, sequence)).then(
        (response) => {
          if (response.status === 202) accepted.push({ uuid: response.body.action_group.uuid, sequence, sentAt, acceptedAt: Date.now() });
          else if (++refused <= 3) console.error(`submit refused: ${response.status} ${JSON.stringify(response.body)}`);
        },
        (error: unknown) => {
          if (++refused <= 3) console.error(`submit failed: ${String(error)}`);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  return { accepted, refused, submitted: total, startedAt, windowEnd: startedAt + durationS * 1000 };
}

export interface StoredGroup {
  _id: string;
  status: string;
  started_at?: Date | null;
  finished_at?: Date | null;
  actions: { type: string; started_at: Date | null; finished_at: Date | null }[];
}

/**
 * Reads the groups straight from MongoDB (no polling through the API, which would load the
 * gateway) once none is processing or `drainLimitMs` ran out: the accepted ones, and how many
 * others the run left (created after `since`).
 */
export async function waitForGroups(businessId: string, uuids: readonly string[], since: Date, drainLimitMs: number): Promise<{ accepted: StoredGroup[]; others: number }> {
  const groups = mongoose.connection.collection<StoredGroup>('action_groups');
  const deadline = Date.now() + drainLimitMs;
  while (Date.now() < deadline && (await groups.countDocuments({ business_id: businessId, status: 'processing' })) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const wanted = new Set(uuids);
  const stored = await groups
    .find({ business_id: businessId, created_at: { $gte: since } }, { projection: { status: 1, started_at: 1, finished_at: 1, 'actions.type': 1, 'actions.started_at': 1, 'actions.finished_at': 1 } })
    .toArray();
  const accepted = stored.filter((group) => wanted.has(group._id));
  return { accepted, others: stored.length - accepted.length };
}

/** From each group's 202 to its last action's end, sorted (groups still processing left out). */
export function acceptedToLastAction(submissions: readonly Submission[], stored: readonly StoredGroup[]): number[] {
  const byUuid = new Map(stored.map((group) => [group._id, group]));
  const completion: number[] = [];
  for (const submission of submissions) {
    const group = byUuid.get(submission.uuid);
    if (!group || group.status === 'processing') continue;
    const ends = group.actions.map((action) => (action.finished_at ?? group.finished_at)!.getTime());
    completion.push(Math.max(...ends) - submission.acceptedAt);
  }
  return completion.sort((a, b) => a - b);
}
