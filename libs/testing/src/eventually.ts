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
