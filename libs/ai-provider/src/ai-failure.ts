import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { CatalogError, isCatalogError } from '@cmsg/errors';

/** Longest provider message kept in our error text (provider messages can echo prompts). */
const MAX_PROVIDER_MESSAGE = 300;

export function aiExecutionFailed(why: string, cause?: unknown): CatalogError {
  return new CatalogError('AI_EXECUTION_FAILED', `The AI run failed: ${why}.`, { cause });
}

/**
 * Every failure of a provider call becomes AI_EXECUTION_FAILED with the reason in the message.
 * `budget` tells a budget overrun apart from an abort asked for by the caller.
 */
export function toAiFailure(error: unknown, what: string, budget: { ms: number; overrun: boolean }): CatalogError {
  if (isCatalogError(error)) return error;
  if (budget.overrun || error instanceof APIConnectionTimeoutError) {
    return aiExecutionFailed(`${what} exceeded its budget of ${budget.ms} ms`, error);
  }
  if (error instanceof APIUserAbortError) return aiExecutionFailed(`${what} was cancelled`, error);
  if (error instanceof APIConnectionError) return aiExecutionFailed(`${what} could not reach the AI provider (${error.message})`, error);
  if (error instanceof APIError) {
    const code = typeof error.code === 'string' ? `, ${error.code}` : '';
    return aiExecutionFailed(`${what} was refused by the AI provider (HTTP ${error.status ?? '?'}${code}: ${shorten(providerMessage(error))})`, error);
  }
  return aiExecutionFailed(`${what} failed (${shorten(error instanceof Error ? error.message : String(error))})`, error);
}

function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}

function shorten(text: string): string {
  return text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}...` : text;
}
