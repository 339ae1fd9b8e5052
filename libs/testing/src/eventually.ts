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

/**
 * Runs `attempt` until one run took less than `windowMs` on the test's clock, and returns that run's value:
 * for a rule the server counts over a fixed window of its own clock (the calls of the last second), whose
 * setup must fall inside that window. A loaded machine's pause can split a run's calls across it; such a run
 * proves nothing either way and is made again (on fresh keys: `attempt` starts from nothing each time).
 * Time spent inside the server is inside the test's clock reads, so a run shorter than the window on the
 * test's clock is one on the server's too (2 ms for the rounding of two clocks).
 */
export async function withinOneWindow<Value>(windowMs: number, attempt: () => Promise<Value>, tries = 5): Promise<Value> {
  for (let run = 1; ; run += 1) {
    const startedAt = Date.now();
    const value = await attempt();
    const tookMs = Date.now() - startedAt;
    if (tookMs < windowMs - 2) return value;
    if (run >= tries) throw new Error(`each of ${tries} runs took ${windowMs - 2} ms or more (the last ${tookMs} ms): the machine never left this test a window undisturbed`);
  }
}
