/**
 * The `data` of a scheduled message's events and timeline rows (CONTRACT 9.2; docs/decisions.md,
 * Event data): its uuid; scheduled_message.failed adds the error it failed with.
 */
export function scheduleEventData(scheduleId: string, error?: { code: string; message: string } | null): Record<string, unknown> {
  return { scheduled_message_uuid: scheduleId, ...(error ? { error } : {}) };
}
