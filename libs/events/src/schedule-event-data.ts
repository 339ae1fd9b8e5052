/**
 * The `data` of a scheduled message's events and timeline rows (CONTRACT 9.2): its uuid; the sent
 * event adds the message it sent (null when unknown), the failed one its error.
 */
export function scheduleEventData(scheduleId: string, extra: { message_uuid?: string | null; error?: { code: string; message: string } | null } = {}): Record<string, unknown> {
  return { scheduled_message_uuid: scheduleId, ...extra };
}
