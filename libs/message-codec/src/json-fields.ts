/** A JSON object: a public shape built from an RPC message, or a sub-document stored on a schedule. */
export type Json = Record<string, unknown>;

/** Drops absent members, so a public object has only what is there. */
export function presentFields(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A stored string member; anything else, and the empty string, is absent. */
export function storedText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A stored list of objects (absent: empty). */
export function storedList(value: unknown): Json[] {
  return (value ?? []) as Json[];
}
