import { CatalogError } from '@cmsg/errors';
import { AiEmployeeModel, type BusinessScope, scopedFilter } from '@cmsg/dal';
import type { ChargeAiWalletResponse } from '@cmsg/proto';

export interface ChargeAiWalletCommand {
  aiEmployeeUuid: string;
  tokens: number;
  /** Idempotency key of the charge: the same id is applied once. */
  operationId: string;
}

/** How many recent operation ids an employee remembers; retries come long before that many new charges. */
export const APPLIED_CHARGES_KEPT = 200;

interface WalletDocument {
  wallet_tokens: number;
  wallet_blocked?: boolean;
}

/**
 * ChargeAiWallet: the decrement and the record of its operation id are one single-document update
 * (compare-and-set on "this id is not applied yet"), so a retried charge never applies twice and a
 * crash never records one without the other. FerretDB ignores `$push` with `$slice`, so the id list
 * is trimmed by a separate `$pop`. The raw collection on purpose: `applied_charges` is bookkeeping
 * of this use case, not a field of the employee model (mongoose would strip it from the update).
 */
export async function chargeAiWallet(scope: BusinessScope, command: ChargeAiWalletCommand): Promise<ChargeAiWalletResponse> {
  const { aiEmployeeUuid, tokens, operationId } = command;
  if (!aiEmployeeUuid) throw new CatalogError('INVALID_REQUEST', 'ai_employee_uuid is required.');
  if (!operationId) throw new CatalogError('INVALID_REQUEST', 'operation_id is required.');
  if (!Number.isFinite(tokens) || tokens < 0) throw new CatalogError('INVALID_REQUEST', 'tokens must be a finite number >= 0.');

  const wallets = AiEmployeeModel.collection;
  const employee = scopedFilter(scope, { _id: aiEmployeeUuid as never });
  const charged = await wallets.findOneAndUpdate(
    { ...employee, applied_charges: { $ne: operationId } },
    { $inc: { wallet_tokens: -tokens }, $push: { applied_charges: operationId } as never },
    { returnDocument: 'after' },
  );
  if (!charged) {
    // Not found, or this operation was already charged: report the balance as it is.
    const current = await wallets.findOne<WalletDocument>(employee, { projection: { wallet_tokens: 1 } });
    if (!current) throw new CatalogError('AI_EMPLOYEE_NOT_FOUND', `No AI employee with uuid '${aiEmployeeUuid}' in this business.`);
    return { wallet_tokens: current.wallet_tokens };
  }
  const balance = (charged as unknown as WalletDocument).wallet_tokens;
  if (balance <= 0) await wallets.updateOne({ ...employee, wallet_tokens: { $lte: 0 }, wallet_blocked: { $ne: true } }, { $set: { wallet_blocked: true } });
  await wallets.updateOne({ ...employee, [`applied_charges.${APPLIED_CHARGES_KEPT}`]: { $exists: true } }, { $pop: { applied_charges: -1 } as never });
  return { wallet_tokens: balance };
}
