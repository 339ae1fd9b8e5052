/** Who asked for a change: an API token (endpoints, action groups) or the system (escalation, schedules). */
export interface ActionActor {
  type: 'api_token' | 'system';
  uuid: string | null;
}

/** The actor of a request made with `tokenUuid` (empty: a system caller). */
export function actorOfToken(tokenUuid: string | undefined): ActionActor {
  return tokenUuid ? { type: 'api_token', uuid: tokenUuid } : { type: 'system', uuid: null };
}
