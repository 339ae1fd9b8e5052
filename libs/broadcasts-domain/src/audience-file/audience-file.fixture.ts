import type { AudienceByteSource } from './audience-row';

/** The bytes of `content` in chunks of `chunkSize`, as plain Uint8Arrays (a file stream gives Buffers). */
export async function* chunked(content: string | Buffer, chunkSize = 64 * 1024): AudienceByteSource {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  for (let start = 0; start < bytes.length; start += chunkSize) yield new Uint8Array(bytes.subarray(start, start + chunkSize));
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

export async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
