export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Opaque, signed, expiring list cursors (the conversations service's ListCursorCodec). */
export interface PageCursorCodec {
  encode(endpoint: string, order: 'asc' | 'desc', position: { sortAt: number; id: string }): string;
  decode(cursor: string, endpoint: string, order: 'asc' | 'desc'): { sortAt: number; id: string };
}
