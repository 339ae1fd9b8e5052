import { SendWindowError } from './send-window-error';

/**
 * Local wall-clock times `HH:MM` in the business time zone: sends go from `from` (included) to `to`
 * (excluded), across midnight when `to` is earlier than `from` (22:00-06:00).
 */
export interface SendWindow {
  from: string;
  to: string;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A `send_window` of a broadcast request (CONTRACT 10.4): from and to `HH:MM` 00:00-23:59, not equal. */
export function parseSendWindow(input: unknown): SendWindow {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new SendWindowError('send_window', 'must be an object { from, to }');
  const { from, to } = input as Record<string, unknown>;
  if (typeof from !== 'string' || !HH_MM.test(from)) throw new SendWindowError('send_window.from', 'must be a time HH:MM from 00:00 to 23:59');
  if (typeof to !== 'string' || !HH_MM.test(to)) throw new SendWindowError('send_window.to', 'must be a time HH:MM from 00:00 to 23:59');
  if (from === to) throw new SendWindowError('send_window', 'from and to must differ');
  return { from, to };
}

/** The minute of the day of a window's `HH:MM`. */
export function minuteOfDay(time: string): number {
  const match = HH_MM.exec(time);
  if (match === null) throw new Error(`send window: ${JSON.stringify(time)} is not HH:MM`);
  return Number(match[1]) * 60 + Number(match[2]);
}
