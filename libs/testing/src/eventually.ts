/** Polls until `read` answers something `accept` likes (work that finishes in the background). */
export async function eventually<Value>(read: () => Promise<Value>, accept: (value: Value) => boolean, timeoutMs = 20_000): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  let last: Value = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
  return last;
}

/**
 * Polls `read` until `accept` likes its answer, for a rule of the form "a change is honoured within N ms":
 * returns how long after `since` the last refused read was sent. The send time is what the rule bounds;
 * when an answer arrives depends on how loaded the machine is.
 */
export async function lastStaleReadAfter<Value>(since: number, read: () => Promise<Value>, accept: (value: Value) => boolean, timeoutMs = 10_000): Promise<number> {
  let lastStaleSentAt = Number.NEGATIVE_INFINITY;
  for (;;) {
    const sentAt = Date.now();
    const value = await read();
    if (accept(value)) return lastStaleSentAt - since;
    lastStaleSentAt = sentAt;
    if (Date.now() - since > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
