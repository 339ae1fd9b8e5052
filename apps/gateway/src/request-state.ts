import type { AuthenticatedToken, Caller } from '@cmsg/proto';
import type { Response } from 'express';

/** What the pipeline learned about a request, kept on res.locals under one key. */
interface GatewayRequestState {
  token?: AuthenticatedToken;
}

function stateOf(res: Response): GatewayRequestState {
  const locals = res.locals as { gateway?: GatewayRequestState };
  locals.gateway ??= {};
  return locals.gateway;
}

export function rememberAuthenticatedToken(res: Response, token: AuthenticatedToken): void {
  stateOf(res).token = token;
}

export function authenticatedTokenOf(res: Response): AuthenticatedToken {
  const { token } = stateOf(res);
  if (!token) throw new Error('No authenticated token: the authenticate middleware must run before this one');
  return token;
}

/** The caller every business gRPC request carries: its business_id scopes every lookup. */
export function callerOf(res: Response): Caller {
  const token = authenticatedTokenOf(res);
  return { business_id: token.business_id, token_uuid: token.token_uuid };
}
