import { CatalogError } from '@cmsg/errors';
import { AiEmployeeModel, aiEmployeeWallet, type BusinessScope, chargeWallet, scopedFilter } from '@cmsg/dal';
import type { ChargeAiWalletResponse } from '@cmsg/proto';

export interface ChargeAiWalletCommand {
  aiEmployeeUuid: string;
  tokens: number;
  /** Idempotency key of the charge: the same id is applied once. */
  operationId: string;
}

/**
 * ChargeAiWallet: one entry in the employee's wallet ledger per operation id (libs/dal
 * wallet-ledger), decided by an insert so that concurrent charges are neither lost nor applied
 * twice, also on FerretDB. A wallet that is already empty or blocked refuses the charge
 * (WALLET_BLOCKED); a repeated operation answers the current balance.
 */
export async function chargeAiWallet(scope: BusinessScope, command: ChargeAiWalletCommand, now: Date = new Date()): Promise<ChargeAiWalletResponse> {
  const { aiEmployeeUuid, tokens, operationId } = command;
  if (!aiEmployeeUuid) throw new CatalogError('INVALID_REQUEST', 'ai_employee_uuid is required.');
  if (!operationId) throw new CatalogError('INVALID_REQUEST', 'operation_id is required.');
  if (!Number.isFinite(tokens) || tokens < 0) throw new CatalogError('INVALID_REQUEST', 'tokens must be a finite number >= 0.');

  const employee = await AiEmployeeModel.findOne(scopedFilter(scope, { _id: aiEmployeeUuid }), { name: 1, wallet_funded_tokens: 1, wallet_blocked: 1 }).lean<{
    name: string;
    wallet_funded_tokens?: number;
    wallet_blocked?: boolean;
  }>();
  if (!employee) throw new CatalogError('AI_EMPLOYEE_NOT_FOUND', `No AI employee with uuid '${aiEmployeeUuid}' in this business.`);
  const outcome = await chargeWallet(scope, aiEmployeeWallet(aiEmployeeUuid), {
    tokens,
    operationId,
    fundedTokens: employee.wallet_funded_tokens ?? 0,
    blocked: employee.wallet_blocked === true,
    now,
  });
  if (outcome.result === 'refused') throw new CatalogError('WALLET_BLOCKED', `The token wallet of AI employee "${employee.name}" is empty or blocked.`);
  return { wallet_tokens: outcome.balance };
}
