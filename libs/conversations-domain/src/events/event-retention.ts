import { EVENT_RETENTION_DAYS } from '@cmsg/dal';

const RETENTION_MS = EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** The oldest recording time the API still answers: events are kept 30 days (the TTL index may lag). */
export function retentionStart(now: number): Date {
  return new Date(now - RETENTION_MS);
}
