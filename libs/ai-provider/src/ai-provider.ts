import OpenAI, { toFile } from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { aiExecutionFailed, toAiFailure } from './ai-failure';
import { RunBudget } from './run-budget';
import { chatMessagesFor, type TimelineEntry } from './timeline-messages';

export interface AiProviderConfig {
  /** AI_BASE_URL, an OpenAI-compatible API root such as `https://api.openai.com/v1`. */
  baseUrl: string;
  /** AI_API_KEY. */
  apiKey: string;
  /** Speech-to-text model for transcribeAudio. */
  transcriptionModel?: string;
  /** Budget of transcribeAudio and describeImage when the call gives none. */
  defaultBudgetMs?: number;
}

export interface AiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface CompletionRequest {
  model: string;
  instructions: string;
  timeline: readonly TimelineEntry[];
  /** Wall-clock budget of the whole call, retries included. */
  budgetMs: number;
  maxOutputTokens?: number;
  /** Cancels the call early (shutdown, the group's own deadline). */
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  /** Charged to the employee's token wallet; estimated from text lengths if the provider sends none. */
  usage: AiUsage;
  /** The model the provider says answered. */
  model: string;
}

export interface TranscriptionOptions {
  model?: string;
  /** ISO-639-1 hint, e.g. `es`. */
  language?: string;
  budgetMs?: number;
  signal?: AbortSignal;
}

export interface DescribeImageOptions {
  prompt?: string;
  budgetMs?: number;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export type AudioInput = Buffer | Uint8Array | NodeJS.ReadableStream;

const DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';
const DEFAULT_MEDIA_BUDGET_MS = 120_000;
const DEFAULT_IMAGE_PROMPT =
  'Describe this image for a customer-support agent who cannot see it. Transcribe any visible text exactly. Be concise.';

/** AI employees' access to an OpenAI-compatible API; every failure is AI_EXECUTION_FAILED. */
export class AiProvider {
  private readonly client: OpenAI;
  private readonly transcriptionModel: string;
  private readonly defaultBudgetMs: number;

  constructor(config: AiProviderConfig) {
    if (!config.apiKey) throw new Error('AiProvider needs an API key (AI_API_KEY)');
    this.client = new OpenAI({
      baseURL: config.baseUrl,
      apiKey: config.apiKey,
      // One retry absorbs a dropped connection; more would eat the run's budget.
      maxRetries: 1,
      // Explicit nulls stop the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID: config comes from our own module only.
      organization: null,
      project: null,
    });
    this.transcriptionModel = config.transcriptionModel ?? DEFAULT_TRANSCRIPTION_MODEL;
    this.defaultBudgetMs = config.defaultBudgetMs ?? DEFAULT_MEDIA_BUDGET_MS;
  }

  /** One reply of an AI employee to a conversation timeline. */
  complete(request: CompletionRequest): Promise<CompletionResult> {
    const messages = chatMessagesFor(request.instructions, request.timeline);
    return this.chat('the completion', request.model, messages, request.budgetMs, request.maxOutputTokens, request.signal);
  }

  /** A text description of an image (https URL or `data:` URL), for inbound media the AI cannot see. */
  describeImage(imageUrl: string, model: string, options: DescribeImageOptions = {}): Promise<CompletionResult> {
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: options.prompt ?? DEFAULT_IMAGE_PROMPT },
          { type: 'image_url', image_url: { url: imageUrl } },
        ],
      },
    ];
    return this.chat('the image description', model, messages, options.budgetMs ?? this.defaultBudgetMs, options.maxOutputTokens, options.signal);
  }

  /** Speech to text for an inbound voice note or audio file. */
  async transcribeAudio(audio: AudioInput, fileName: string, mimeType: string, options: TranscriptionOptions = {}): Promise<{ text: string }> {
    const budgetMs = options.budgetMs ?? this.defaultBudgetMs;
    const budget = new RunBudget(budgetMs, options.signal);
    try {
      const file = await toFile(audio, fileName, { type: mimeType });
      const transcription = await this.client.audio.transcriptions.create(
        { model: options.model ?? this.transcriptionModel, file, ...(options.language ? { language: options.language } : {}) },
        { signal: budget.signal, timeout: budgetMs },
      );
      const text = transcription.text?.trim() ?? '';
      if (text === '') throw aiExecutionFailed('the transcription came back empty');
      return { text };
    } catch (error) {
      throw toAiFailure(error, 'the transcription', budget);
    } finally {
      budget.dispose();
    }
  }

  private async chat(
    what: string,
    model: string,
    messages: ChatCompletionMessageParam[],
    budgetMs: number,
    maxOutputTokens: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CompletionResult> {
    if (!(budgetMs > 0)) throw aiExecutionFailed(`${what} has no time budget left`);
    const budget = new RunBudget(budgetMs, signal);
    let completion: ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        { model, messages, ...(maxOutputTokens ? { max_completion_tokens: maxOutputTokens } : {}) },
        { signal: budget.signal, timeout: budgetMs },
      );
    } catch (error) {
      throw toAiFailure(error, what, budget);
    } finally {
      budget.dispose();
    }
    const choice = completion.choices?.[0];
    const text = choice?.message?.content?.trim() ?? '';
    if (text === '') {
      const reason = choice?.message?.refusal ? `the model refused (${choice.message.refusal})` : `the answer was empty (finish_reason ${choice?.finish_reason ?? 'none'})`;
      throw aiExecutionFailed(reason);
    }
    return { text, usage: usageOf(completion, messages, text), model: completion.model || model };
  }
}

function usageOf(completion: ChatCompletion, messages: ChatCompletionMessageParam[], reply: string): AiUsage {
  const usage = completion.usage;
  if (usage && Number.isFinite(usage.total_tokens)) {
    return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens };
  }
  // Wallets must still be charged when a compatible server omits usage: about 4 characters per token.
  const promptChars = messages.reduce((sum, message) => sum + JSON.stringify(message.content ?? '').length, 0);
  const prompt = Math.ceil(promptChars / 4);
  const completionTokens = Math.ceil(reply.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}
