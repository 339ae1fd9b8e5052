import { Readable } from 'node:stream';
import { AiProvider } from '@cmsg/ai-provider';
import { CloudApiClient, isTransientCloudApiError, type MessageContent } from '@cmsg/chat-platform';
import { CatalogError } from '@cmsg/errors';
import { FakeAiServer } from './fake-ai-server';
import { type RunningFakes, startFakes } from './start-fakes';

/** The product's clients against the fakes: each side keeps the other honest about the protocol. */
let fakes: RunningFakes;
const channel = { phone_number_id: '106540352242922', access_token: 'EAAG-channel-token' };

async function catalogErrorOf(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return error as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

beforeAll(async () => {
  fakes = await startFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => {
  fakes.cloudApi.reset();
  fakes.ai.reset();
});

describe('startFakes', () => {
  it('gives the environment the product reads', () => {
    expect(fakes.env).toEqual({ CHAT_API_BASE_URL: fakes.chatApiBaseUrl, AI_BASE_URL: fakes.aiBaseUrl, AI_API_KEY: 'fake-ai-key' });
  });
});

describe('CloudApiClient against FakeCloudApi', () => {
  const client = () => new CloudApiClient({ baseUrl: fakes.chatApiBaseUrl, timeoutMs: 500 });

  it.each<[string, MessageContent]>([
    ['text', { type: 'text', body: 'Hola' }],
    ['image', { type: 'image', link: 'https://files.example/a.jpg', caption: 'look' }],
    ['video', { type: 'video', link: 'https://files.example/a.mp4' }],
    ['audio', { type: 'audio', link: 'https://files.example/a.ogg' }],
    ['document', { type: 'document', link: 'https://files.example/a.pdf', filename: 'a.pdf', caption: 'Invoice' }],
    ['interactive', { type: 'interactive', body: 'Pick', buttons: [{ id: 'y', title: 'Yes' }, { id: 'n', title: 'No' }, { id: 'm', title: 'Maybe' }] }],
    [
      'template',
      {
        type: 'template',
        name: 'order_update',
        language: 'es_MX',
        header: { type: 'image', link: 'https://files.example/h.jpg' },
        body_parameters: ['Ana', '#123'],
        button_parameters: [{ index: 0, sub_type: 'url', text: 'track/123' }],
      },
    ],
  ])('sends %s bodies the provider accepts', async (_type, content) => {
    const result = await client().sendMessage(channel, { to: { phone: '+52 55 1234 5678' }, content });
    const [sent] = fakes.cloudApi.sentMessages();
    expect(sent).toMatchObject({ provider_message_id: result.provider_message_id, authorization: 'Bearer EAAG-channel-token', to: '525512345678' });
    expect(result.wa_id).toBe('525512345678');
  });

  it('sends to a BSUID when enabled', async () => {
    const bsuidClient = new CloudApiClient({ baseUrl: fakes.chatApiBaseUrl, bsuidSendEnabled: true });
    await bsuidClient.sendMessage(channel, { to: { user_id: 'US.13491208655302741918' }, content: { type: 'text', body: 'hi' } });
    expect(fakes.cloudApi.sentMessages({ to: 'US.13491208655302741918' })).toHaveLength(1);
  });

  it('maps injected failures: 400 with the provider code, 500 and latency as transient', async () => {
    fakes.cloudApi.addRule({ match: { to: '1555000400' }, status: 400, error: { code: 131026, message: '(#131026) Message undeliverable' } });
    fakes.cloudApi.addRule({ match: { to: '1555000500' }, status: 500 });
    fakes.cloudApi.addRule({ match: { to: '1555000999' }, delay_ms: 2000 });
    const send = (phone: string) => client().sendMessage(channel, { to: { phone }, content: { type: 'text', body: 'x' } });

    const rejected = await catalogErrorOf(send('1555000400'));
    // CONTRACT 10.3: 131026 is the recipient's outcome, not a provider failure.
    expect(rejected).toMatchObject({ code: 'RECIPIENT_UNDELIVERABLE', httpStatus: 422, providerCode: '131026' });
    expect(rejected.message).toContain('131026');
    expect(isTransientCloudApiError(rejected)).toBe(false);

    const broken = await catalogErrorOf(send('1555000500'));
    expect(broken.code).toBe('SEND_FAILED');
    expect(isTransientCloudApiError(broken)).toBe(true);

    const slow = await catalogErrorOf(send('1555000999'));
    expect(slow.message).toContain('no answer within 500 ms');

    await expect(send('1555000001')).resolves.toMatchObject({ provider_message_id: expect.stringMatching(/^wamid\./) });
  });

  it('fetches inbound media the way the provider serves it', async () => {
    const bytes = Buffer.from('%PDF-1.7 fake');
    const media = fakes.cloudApi.registerMedia({ bytes, mime_type: 'application/pdf' });
    const info = await client().getMediaUrl(media.id, channel.access_token);
    expect(info).toEqual({ url: media.url, mime_type: 'application/pdf', sha256: media.sha256, file_size: bytes.length });
    const download = await client().downloadMedia(info.url, channel.access_token);
    const chunks: Buffer[] = [];
    for await (const chunk of download.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    expect((await catalogErrorOf(client().getMediaUrl('404404', channel.access_token))).code).toBe('FETCH_FAILED');
  });
});

describe('AiProvider against FakeAiServer', () => {
  const provider = () => new AiProvider({ baseUrl: fakes.aiBaseUrl, apiKey: 'fake-ai-key' });
  const timeline = [
    { role: 'customer' as const, text: 'Where is my order?', at: '2026-01-01T10:00:00Z' },
    { role: 'business' as const, text: 'Let me check.', at: '2026-01-01T10:01:00Z' },
    { role: 'note' as const, text: 'VIP customer, be kind', at: '2026-01-01T10:02:00Z' },
    { role: 'customer' as const, text: 'Thanks!', at: '2026-01-01T10:03:00Z' },
  ];

  it('completes a timeline: instructions, user/assistant turns and notes as system lines', async () => {
    const result = await provider().complete({ model: 'gpt-test', instructions: 'You are Ana.', timeline, budgetMs: 5000 });
    expect(result.text).toBe('AI(gpt-test): re: Thanks!');
    expect(result.model).toBe('gpt-test');
    expect(result.usage.total_tokens).toBe(result.usage.prompt_tokens + result.usage.completion_tokens);
    expect(result.usage.completion_tokens).toBe(Math.ceil(result.text.length / 4));

    const [request] = fakes.ai.requests();
    expect(request?.authorization).toBe('Bearer fake-ai-key');
    expect(request?.body).toMatchObject({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are Ana.' },
        { role: 'user', content: 'Where is my order?' },
        { role: 'assistant', content: 'Let me check.' },
        { role: 'system', content: 'Internal note: VIP customer, be kind' },
        { role: 'user', content: 'Thanks!' },
      ],
    });
  });

  it('is AI_EXECUTION_FAILED for an empty answer', async () => {
    fakes.ai.addRule({ reply: '   ' });
    const error = await catalogErrorOf(provider().complete({ model: 'm', instructions: 'i', timeline, budgetMs: 5000 }));
    expect(error).toMatchObject({ code: 'AI_EXECUTION_FAILED', httpStatus: 500 });
    expect(error.message).toContain('empty');
  });

  it('is AI_EXECUTION_FAILED when the budget runs out', async () => {
    // An answer 10 s away, and half of it as the bound: the client gave up at its budget rather than
    // waiting for the answer, by a margin no pause of a loaded machine takes.
    fakes.ai.addRule({ delay_ms: 10_000 });
    const started = Date.now();
    const error = await catalogErrorOf(provider().complete({ model: 'm', instructions: 'i', timeline, budgetMs: 200 }));
    expect(error.code).toBe('AI_EXECUTION_FAILED');
    expect(error.message).toContain('budget of 200 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('retries a provider failure once, then gives up with AI_EXECUTION_FAILED', async () => {
    fakes.ai.addRule({ match: { model: 'flaky' }, status: 500, times: 1 });
    await expect(provider().complete({ model: 'flaky', instructions: 'i', timeline, budgetMs: 5000 })).resolves.toMatchObject({ text: expect.any(String) });
    expect(fakes.ai.requests({ model: 'flaky' }).map((record) => record.status)).toEqual([500, 200]);

    fakes.ai.addRule({ match: { model: 'down' }, status: 503, error: { message: 'overloaded' } });
    const error = await catalogErrorOf(provider().complete({ model: 'down', instructions: 'i', timeline, budgetMs: 5000 }));
    expect(error.code).toBe('AI_EXECUTION_FAILED');
    expect(error.message).toContain('HTTP 503');
    expect(error.message).toContain('overloaded');
    expect(fakes.ai.requests({ model: 'down' })).toHaveLength(2);
  });

  it('does not retry a refused key', async () => {
    const strict = new FakeAiServer({ apiKey: 'the-right-key' });
    const strictUrl = await strict.start();
    try {
      const error = await catalogErrorOf(
        new AiProvider({ baseUrl: strictUrl, apiKey: 'a-wrong-key' }).complete({ model: 'm', instructions: 'i', timeline, budgetMs: 5000 }),
      );
      expect(error.code).toBe('AI_EXECUTION_FAILED');
      expect(error.message).toContain('HTTP 401, invalid_api_key');
      expect(strict.requests()).toHaveLength(1);
    } finally {
      await strict.stop();
    }
  });

  it('describes an image through an image_url content part', async () => {
    const result = await provider().describeImage('data:image/png;base64,iVBORw0KGgo=', 'vision-model', { prompt: 'What is this?' });
    expect(result.text).toBe('AI(vision-model): re: What is this? [1 image]');
    expect(fakes.ai.requests()[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
    });
  });

  it('transcribes audio from a buffer or a stream', async () => {
    await expect(provider().transcribeAudio(Buffer.from('OggS'), 'note.ogg', 'audio/ogg')).resolves.toEqual({ text: 'transcribed: note.ogg' });
    const custom = new AiProvider({ baseUrl: fakes.aiBaseUrl, apiKey: 'k', transcriptionModel: 'gpt-4o-transcribe' });
    await expect(custom.transcribeAudio(Readable.from([Buffer.from('ID3'), Buffer.from('more')]), 'call.mp3', 'audio/mpeg')).resolves.toEqual({
      text: 'transcribed: call.mp3',
    });
    expect(fakes.ai.requests({ endpoint: 'audio.transcriptions' }).map((record) => record.body)).toEqual([
      expect.objectContaining({ model: 'whisper-1', file: { filename: 'note.ogg', content_type: 'audio/ogg', size: 4 } }),
      expect.objectContaining({ model: 'gpt-4o-transcribe', file: { filename: 'call.mp3', content_type: 'audio/mpeg', size: 7 } }),
    ]);
  });

  it('is AI_EXECUTION_FAILED when the transcription is empty or refused', async () => {
    fakes.ai.addRule({ match: { endpoint: 'audio.transcriptions', contains: 'silence' }, reply: '' });
    fakes.ai.addRule({ match: { endpoint: 'audio.transcriptions', contains: 'bad' }, status: 400, error: { message: 'Invalid file format.' } });
    expect((await catalogErrorOf(provider().transcribeAudio(Buffer.from('x'), 'silence.ogg', 'audio/ogg'))).message).toContain('empty');
    expect((await catalogErrorOf(provider().transcribeAudio(Buffer.from('x'), 'bad.ogg', 'audio/ogg'))).message).toContain('Invalid file format.');
  });
});
