import { CatalogError } from '@cmsg/errors';
import type { CompletionRequest, CompletionResult } from '@cmsg/ai-provider';
import type { AiCompletionPort } from '../ports';

/** Answers `AI: <last line>`; can be told to fail or to wait for the abort signal. */
export class FakeAiProvider implements AiCompletionPort {
  readonly requests: CompletionRequest[] = [];
  failWith: CatalogError | undefined;
  hangUntilAborted = false;

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    this.requests.push(request);
    if (this.hangUntilAborted) {
      await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
      throw new CatalogError('AI_EXECUTION_FAILED', 'The AI run failed: the completion was cancelled.');
    }
    if (this.failWith) throw this.failWith;
    const last = request.timeline[request.timeline.length - 1];
    return { text: `AI: ${last?.text ?? ''}`, usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, model: request.model };
  }
}
