export { parseSendWindow } from './send-window';
export type { SendWindow } from './send-window';
export { isInsideWindow, nextSendInstant } from './send-window-timing';
export { SendWindowError } from './send-window-error';
