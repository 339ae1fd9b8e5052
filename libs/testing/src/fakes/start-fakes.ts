import { FakeAiServer, type FakeAiServerOptions } from './fake-ai-server';
import { FakeCloudApi, type FakeCloudApiOptions } from './fake-cloud-api';

export interface StartFakesOptions {
  cloudApi?: FakeCloudApiOptions & { port?: number };
  ai?: FakeAiServerOptions & { port?: number };
}

export interface RunningFakes {
  cloudApi: FakeCloudApi;
  ai: FakeAiServer;
  /** CHAT_API_BASE_URL for the product. */
  chatApiBaseUrl: string;
  /** AI_BASE_URL for the product. */
  aiBaseUrl: string;
  /** Ready to merge into an app's environment (LocalStackOptions.env). */
  env: { CHAT_API_BASE_URL: string; AI_BASE_URL: string; AI_API_KEY: string };
  stop(): Promise<void>;
}

/** Both fakes on loopback, each on a free port unless one is given. */
export async function startFakes(options: StartFakesOptions = {}): Promise<RunningFakes> {
  const cloudApi = new FakeCloudApi(options.cloudApi);
  const ai = new FakeAiServer(options.ai);
  try {
    const [chatApiBaseUrl, aiBaseUrl] = await Promise.all([cloudApi.start(options.cloudApi?.port), ai.start(options.ai?.port)]);
    return {
      cloudApi,
      ai,
      chatApiBaseUrl,
      aiBaseUrl,
      env: { CHAT_API_BASE_URL: chatApiBaseUrl, AI_BASE_URL: aiBaseUrl, AI_API_KEY: options.ai?.apiKey ?? 'fake-ai-key' },
      stop: async () => {
        await Promise.all([cloudApi.stop(), ai.stop()]);
      },
    };
  } catch (error) {
    await Promise.all([cloudApi.stop(), ai.stop()]);
    throw error;
  }
}
