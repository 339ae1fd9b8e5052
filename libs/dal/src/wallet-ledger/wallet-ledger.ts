import { setTimeout as sleep } from 'node:timers/promises';
import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import { AiEmployeeModel, BusinessModel, WalletLedgerModel } from '../models';
import { isDuplicateKeyError } from '../shared/duplicate-key';

/*
 * Token wallets as an append-only ledger (see walletLedgerSchema). A charge reads the wallet's
 * latest entry (seq m), then looks its operation id up, then inserts entry m + 1. Entry m + 1 is
 * only ever written by a caller that saw entry m, so the log has no gaps and each winner knew every
 * earlier charge: a charge already in the log is at seq <= m and the lookup (made after reading m)
 * finds it; one written concurrently is at m + 1 and takes this caller's slot, so it reads again.
 * Exactly one writer per slot on FerretDB (a unique _id) and on MongoDB alike.
 */

/** Concurrent chargers of one wallet each win a slot within this many rounds in practice. */
const MAX_ROUNDS = 200;

export type WalletId = string & { readonly __brand: 'WalletId' };

export const aiEmployeeWallet = (employeeId: string) => `ai_employee:${employeeId}` as WalletId;
export const visionWallet = (businessId: string) => `vision:${businessId}` as WalletId;

export interface WalletPosition {
  /** Seq of the latest entry (0: no charge yet). */
  seq: number;
  chargedTotal: number;
}

export interface WalletCharge {
  tokens: number;
  /** Idempotency key: a charge with an operation id already in the ledger is not applied again. */
  operationId: string;
  /** The wallet's funded amount (seed and top-ups). */
  fundedTokens: number;
  /** An explicit block refuses every charge. */
  blocked?: boolean;
  now: Date;
}

export interface WalletChargeOutcome {
  /** `charged` now, `repeated` (the operation was charged before), or `refused` (the wallet was empty or blocked). */
  result: 'charged' | 'repeated' | 'refused';
  balance: number;
}

export async function walletPosition(scope: BusinessScope, wallet: WalletId): Promise<WalletPosition> {
  const [latest] = await WalletLedgerModel.find(scopedFilter(scope, { wallet_id: wallet }), { seq: 1, charged_total: 1 })
    .sort({ seq: -1 })
    .limit(1)
    .lean<{ seq: number; charged_total: number }[]>();
  return latest ? { seq: latest.seq, chargedTotal: latest.charged_total } : { seq: 0, chargedTotal: 0 };
}

/** Funded minus charged: what the wallet guards compare with 0. */
export async function walletBalance(scope: BusinessScope, wallet: WalletId, fundedTokens: number): Promise<number> {
  return fundedTokens - (await walletPosition(scope, wallet)).chargedTotal;
}

/**
 * Applies a charge once per operation id. The wallet decides by its state right before the charge:
 * open (not blocked, balance > 0) takes the whole charge (the tokens were already spent, so the last
 * one may take it below 0, which closes it); closed refuses it and records nothing.
 */
export async function chargeWallet(scope: BusinessScope, wallet: WalletId, charge: WalletCharge): Promise<WalletChargeOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const latest = await walletPosition(scope, wallet);
    const balance = charge.fundedTokens - latest.chargedTotal;
    if (await WalletLedgerModel.exists(scopedFilter(scope, { wallet_id: wallet, operation_id: charge.operationId }))) return { result: 'repeated', balance };
    if (charge.blocked || balance <= 0) return { result: 'refused', balance };
    const seq = latest.seq + 1;
    const chargedTotal = latest.chargedTotal + charge.tokens;
    try {
      await WalletLedgerModel.create({
        _id: `${wallet}:${seq}`,
        business_id: scope.businessId,
        wallet_id: wallet,
        seq,
        operation_id: charge.operationId,
        tokens: charge.tokens,
        charged_total: chargedTotal,
        created_at: charge.now,
      });
      return { result: 'charged', balance: charge.fundedTokens - chargedTotal };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // Another charge took this slot: read the log again (a short random pause spreads the retries).
      await sleep(Math.floor(Math.random() * Math.min(20, round + 2)));
    }
  }
  throw new Error(`wallet ${wallet}: no ledger slot won in ${MAX_ROUNDS} rounds`);
}

/** The business's vision wallet balance (0 for an unknown business). */
export async function visionWalletBalance(scope: BusinessScope): Promise<number> {
  const business = await BusinessModel.findById(scope.businessId, { vision_wallet_funded_tokens: 1 }).lean<{ vision_wallet_funded_tokens?: number }>();
  return walletBalance(scope, visionWallet(scope.businessId), business?.vision_wallet_funded_tokens ?? 0);
}

/** Charges the vision wallet once per operation (e.g. one transcription); see chargeWallet. */
export async function chargeVisionWallet(scope: BusinessScope, tokens: number, operationId: string, now: Date = new Date()): Promise<WalletChargeOutcome> {
  const business = await BusinessModel.findById(scope.businessId, { vision_wallet_funded_tokens: 1 }).lean<{ vision_wallet_funded_tokens?: number }>();
  return chargeWallet(scope, visionWallet(scope.businessId), { tokens, operationId, fundedTokens: business?.vision_wallet_funded_tokens ?? 0, now });
}

/** An AI employee's wallet as the guards see it; null when the employee does not exist in the business. */
export async function aiEmployeeWalletState(scope: BusinessScope, employeeId: string): Promise<{ balance: number; blocked: boolean } | null> {
  const employee = await AiEmployeeModel.findOne(scopedFilter(scope, { _id: employeeId }), { wallet_funded_tokens: 1, wallet_blocked: 1 }).lean<{
    wallet_funded_tokens?: number;
    wallet_blocked?: boolean;
  }>();
  if (!employee) return null;
  const balance = await walletBalance(scope, aiEmployeeWallet(employeeId), employee.wallet_funded_tokens ?? 0);
  return { balance, blocked: employee.wallet_blocked === true || balance <= 0 };
}
