import { FakeAiServer } from './fake-ai-server';
import { FakeAiRemote } from './fake-remote-control';
import { parseMultipart } from './multipart';

const fake = new FakeAiServer();
let baseUrl: string;

function chat(body: unknown, auth: string | null = 'Bearer sk-test') {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    body: JSON.stringify(body),
  });
}

const conversation = {
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Where is my order?' },
    { role: 'assistant', content: 'Let me check.' },
    { role: 'system', content: 'Internal note: VIP' },
    { role: 'user', content: 'Thanks' },
  ],
};

beforeAll(async () => {
  baseUrl = await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('FakeAiServer chat completions', () => {
  it('answers deterministically with usage from text lengths', async () => {
    const response = await chat(conversation);
    expect(response.status).toBe(200);
    const promptChars = 'You are helpful.\nWhere is my order?\nLet me check.\nInternal note: VIP\nThanks'.length;
    const reply = 'AI(gpt-test): re: Thanks';
    expect(await response.json()).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: reply, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: Math.ceil(promptChars / 4),
        completion_tokens: Math.ceil(reply.length / 4),
        total_tokens: Math.ceil(promptChars / 4) + Math.ceil(reply.length / 4),
      },
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(fake.requests()).toEqual([
      expect.objectContaining({ endpoint: 'chat.completions', model: 'gpt-test', authorization: 'Bearer sk-test', body: conversation, status: 200, reply }),
    ]);
  });

  it('reads text parts and counts images in content arrays', async () => {
    const response = await chat({
      model: 'vision',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] }],
    });
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'AI(vision): re: Describe [1 image]' } }] });
  });

  it('refuses a missing key, a missing model and empty messages like the OpenAI API', async () => {
    const noKey = await chat(conversation, null);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    expect((await chat({ messages: conversation.messages })).status).toBe(400);
    expect((await chat({ model: 'm', messages: [] })).status).toBe(400);
  });

  it('applies failure, reply, latency and disconnect rules', async () => {
    fake.addRule({ match: { model: 'flaky' }, status: 503, times: 1 });
    fake.addRule({ match: { contains: 'say nothing' }, reply: '' });
    fake.addRule({ match: { model: 'slow' }, delay_ms: 120 });
    fake.addRule({ match: { model: 'gone' }, disconnect: true });

    const failed = await chat({ ...conversation, model: 'flaky' });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ error: { type: 'server_error' } });
    expect((await chat({ ...conversation, model: 'flaky' })).status).toBe(200);

    const empty = await chat({ model: 'm', messages: [{ role: 'user', content: 'please say nothing' }] });
    expect(await empty.json()).toMatchObject({ choices: [{ message: { content: '' } }], usage: { completion_tokens: 0 } });

    const started = Date.now();
    expect((await chat({ ...conversation, model: 'slow' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);

    await expect(chat({ ...conversation, model: 'gone' })).rejects.toThrow();
  });
});

describe('FakeAiServer audio transcriptions', () => {
  it('reads the multipart upload and answers with the file name', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.from('fake-audio')], { type: 'audio/ogg' }), 'voice-note.ogg');
    const response = await fetch(`${baseUrl}/audio/transcriptions`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ text: 'transcribed: voice-note.ogg' });
    expect(fake.requests({ endpoint: 'audio.transcriptions' })[0]).toMatchObject({
      model: 'whisper-1',
      body: { model: 'whisper-1', file: { filename: 'voice-note.ogg', content_type: 'audio/ogg', size: 10 } },
    });
  });

  it('answers plain text when asked, and 400 without a file', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('response_format', 'text');
    form.append('file', new Blob(['x']), 'a.mp3');
    const response = await fetch(`${baseUrl}/audio/transcriptions`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: form });
    expect(await response.text()).toBe('transcribed: a.mp3');

    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    expect((await fetch(`${baseUrl}/audio/transcriptions`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: noFile })).status).toBe(400);
  });
});

describe('FakeAiServer control endpoints', () => {
  it('lets another process inspect and steer it', async () => {
    const remote = new FakeAiRemote(baseUrl);
    const [id] = await remote.addRules({ match: { endpoint: 'chat.completions' }, status: 429 });
    expect((await chat(conversation)).status).toBe(429);
    expect(await remote.requests({ endpoint: 'chat.completions' })).toHaveLength(1);
    await remote.removeRule(id!);
    expect((await chat(conversation)).status).toBe(200);
    const [, second] = await remote.requests();
    expect(await remote.requests({ since: (second?.seq ?? 0) - 1 })).toEqual([second]);
    await remote.reset();
    expect(fake.requests()).toEqual([]);
  });
});

describe('parseMultipart', () => {
  it('returns undefined for a body that is not multipart', () => {
    expect(parseMultipart(Buffer.from('{}'), 'application/json')).toBeUndefined();
  });

  it('keeps binary file content intact', () => {
    const bytes = Buffer.from([0, 13, 10, 45, 45, 255]);
    const body = Buffer.concat([
      Buffer.from('--b0\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      bytes,
      Buffer.from('\r\n--b0\r\nContent-Disposition: form-data; name="model"\r\n\r\nm\r\n--b0--\r\n'),
    ]);
    const parts = parseMultipart(body, 'multipart/form-data; boundary=b0');
    expect(parts?.[0]).toMatchObject({ name: 'file', filename: 'x.bin', contentType: 'application/octet-stream' });
    expect(parts?.[0]?.data.equals(bytes)).toBe(true);
    expect(parts?.[1]?.data.toString()).toBe('m');
  });
});
