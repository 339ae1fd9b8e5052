import { CatalogError } from '@cmsg/errors';
import type { BusinessScope } from '@cmsg/dal';
import type { ChargeAiWalletResponse } from '@cmsg/proto';
import type { AiEmployeeStore } from './ai-employee-store';

export interface ChargeAiWalletCommand {
  aiEmployeeUuid: string;
  tokens: number;
  /** Idempotency key of the charge: the same id is applied once. */
  operationId: string;
}

/**
 * ChargeAiWallet: the tokens an AI run spent, charged to the employee's wallet once per operation
 * id by a conditional $inc (libs/dal shared/token-wallet.ts). An empty or blocked wallet refuses
 * the charge (WALLET_BLOCKED); a balance short of the charge gives what it has and records the
 * rest as unbilled; a repeated operation answers the current balance.
 */
export async function chargeAiWallet(employees: AiEmployeeStore, scope: BusinessScope, command: ChargeAiWalletCommand): Promise<ChargeAiWalletResponse> {
  const { aiEmployeeUuid, tokens, operationId } = command;
  if (!aiEmployeeUuid) throw new CatalogError('INVALID_REQUEST', 'ai_employee_uuid is required.');
  if (!operationId) throw new CatalogError('INVALID_REQUEST', 'operation_id is required.');
  if (!Number.isFinite(tokens) || tokens < 0) throw new CatalogError('INVALID_REQUEST', 'tokens must be a finite number >= 0.');

  const outcome = await employees.chargeWallet(scope, aiEmployeeUuid, { tokens, operationId });
  if (!outcome) throw new CatalogError('AI_EMPLOYEE_NOT_FOUND', `No AI employee with uuid '${aiEmployeeUuid}' in this business.`);
  if (outcome.result === 'refused') {
    const employee = await employees.findById(scope, aiEmployeeUuid);
    throw new CatalogError('WALLET_BLOCKED', `The token wallet of AI employee "${employee?.name ?? aiEmployeeUuid}" is empty or blocked.`);
  }
  return { wallet_tokens: outcome.balance };
}
