import type { BroadcastEntity, BroadcastRecipientEntity } from '@cmsg/dal';
import type { Broadcast, BroadcastRecipient } from '@cmsg/proto';

/** The broadcast as the API shows it (CONTRACT 10.4); the channel by its public key. */
export function broadcastView(broadcast: BroadcastEntity, channel: { public_key: string; max_messages_per_second: number }, currentPerSecond: number): Broadcast {
  return {
    uuid: broadcast._id,
    name: broadcast.name,
    channel: channel.public_key,
    template: { ...broadcast.template },
    status: broadcast.status,
    pause_reason: broadcast.pause_reason ?? undefined,
    send_at: broadcast.send_at.toISOString(),
    started_at: broadcast.started_at?.toISOString(),
    finished_at: broadcast.finished_at?.toISOString(),
    counts: { ...broadcast.counts },
    skipped_by_reason: { ...broadcast.skipped_by_reason },
    failed_by_code: { ...broadcast.failed_by_code },
    rate: { max_per_second: effectiveRate(broadcast, channel.max_messages_per_second), current_per_second: currentPerSecond },
    send_window: broadcast.send_window ?? undefined,
    created_at: broadcast.created_at.toISOString(),
    error: broadcast.error ? { code: broadcast.error.code, message: broadcast.error.message } : undefined,
  };
}

/** The broadcast's own cap, never above its channel's. */
export function effectiveRate(broadcast: Pick<BroadcastEntity, 'max_per_second'>, channelPerSecond: number): number {
  return broadcast.max_per_second === null ? channelPerSecond : Math.min(broadcast.max_per_second, channelPerSecond);
}

/** A recipient as listed: `sending` while claimed (the counts keep it under `pending`). */
export function recipientView(recipient: BroadcastRecipientEntity): BroadcastRecipient {
  return {
    contact: { uuid: recipient.contact_id ?? undefined, phone: recipient.phone ?? undefined },
    status: recipient.status,
    reason: recipient.reason ?? undefined,
    error: recipient.error ? { code: recipient.error.code, message: recipient.error.message } : undefined,
    provider_code: recipient.error?.provider_code ?? undefined,
    message_uuid: recipient.message_id,
    sent_at: recipient.sent_at?.toISOString(),
  };
}
