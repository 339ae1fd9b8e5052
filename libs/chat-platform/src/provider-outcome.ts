import { CatalogError, type ErrorCode } from '@cmsg/errors';
import type { CloudApiFailure } from './cloud-api-failure';

/**
 * CONTRACT 10.3: the Cloud API codes of a failed send that tell the caller something it can act on
 * (the recipient or the business must change, not the request), each a catalog code of its own.
 * None of them is retried: sending the same message again gets the same answer. Every other
 * provider failure stays SEND_FAILED.
 */
export const PROVIDER_OUTCOMES = {
  /** Outside the 24 h customer service window: only a template may go. */
  131047: 'WINDOW_CLOSED',
  /** The recipient cannot receive messages (not on the platform, old app, ...). */
  131026: 'RECIPIENT_UNDELIVERABLE',
  /** The platform's per-user cap of marketing templates. */
  131049: 'MARKETING_LIMIT_REACHED',
  /** The user stopped marketing messages from the business (consent.marketing -> opted_out, source provider). */
  131050: 'CONTACT_OPTED_OUT',
  /** The user is in a platform experiment that withholds marketing messages. */
  130472: 'RECIPIENT_IN_EXPERIMENT',
} as const satisfies Record<number, ErrorCode>;

export type ProviderOutcomeCode = (typeof PROVIDER_OUTCOMES)[keyof typeof PROVIDER_OUTCOMES];

/** The catalog code of a failed send, from the provider's code (a number in a send's answer, a number or string in a status webhook). */
export function catalogCodeOfProviderCode(providerCode: number | string | null | undefined): ProviderOutcomeCode | 'SEND_FAILED' {
  if (providerCode === null || providerCode === undefined || String(providerCode) === '') return 'SEND_FAILED';
  return (PROVIDER_OUTCOMES as Record<string, ProviderOutcomeCode>)[String(providerCode)] ?? 'SEND_FAILED';
}

/** The provider's code as it is stored and shown (`provider_code`): a string, null when the failure had none. */
export function providerCodeOf(failure: CloudApiFailure): string | null {
  const code = failure.details.providerError?.code;
  return code === undefined || code === null ? null : String(code);
}

/**
 * The catalog error of a send that failed once the request may have left the process: the mapped
 * code (SEND_FAILED for the rest), the provider's words in the message, its code as providerCode.
 */
export function sendFailureError(failure: CloudApiFailure): CatalogError {
  const providerCode = providerCodeOf(failure);
  return new CatalogError(catalogCodeOfProviderCode(providerCode), `Sending to the chat channel failed: ${failure.message}`, { providerCode, cause: failure });
}
