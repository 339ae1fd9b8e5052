import { CatalogError } from '@cmsg/errors';
import type { AiEmployee, ConversationContext } from '@cmsg/proto';

/** WALLET_BLOCKED when the employee's token wallet is empty or blocked (CONTRACT 7). */
export function assertWalletOpen(employee: AiEmployee): void {
  if (employee.wallet_blocked || employee.wallet_tokens <= 0) {
    throw new CatalogError('WALLET_BLOCKED', `The token wallet of AI employee "${employee.name}" is empty or blocked.`);
  }
}

/**
 * VISION_WALLET_BLOCKED when inbound media awaits transcription and the business vision wallet
 * is empty: the AI could not see what the customer sent.
 */
export function assertVisionAvailable(context: ConversationContext): void {
  if (context.media_awaiting_transcription > 0 && context.vision_wallet_tokens <= 0) {
    throw new CatalogError(
      'VISION_WALLET_BLOCKED',
      `Inbound media awaits transcription (${context.media_awaiting_transcription}) and the vision token wallet is empty.`,
    );
  }
}
