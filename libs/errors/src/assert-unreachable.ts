/**
 * The end of an exhaustive `switch`: a case left unhandled does not compile. A value the types rule
 * out can still arrive from outside them (a newer peer, a stored document, unchecked input), so it
 * fails loudly: with `failure(value)` when that is a function (the error the caller's edge expects),
 * else an Error that starts with `failure` and shows the value.
 */
export function assertUnreachable(value: never, failure: string | ((value: unknown) => Error)): never {
  if (typeof failure === 'function') throw failure(value);
  throw new Error(`${failure}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}
