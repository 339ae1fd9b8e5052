import type { Model } from 'mongoose';

/*
 * A token wallet kept in its owner's document (an AI employee's wallet, a business's vision
 * wallet): a balance charged by a conditional $inc whose filter holds `balance >= cost`, and the
 * ids of the last RECENT_OPERATIONS charges, so a repeated operation (a retried AI run, a
 * redelivered transcription) is recognised in the same atomic update and charged once.
 *
 * A charge is for work already done (the tokens are spent before they are counted). When the
 * balance is short of it, the wallet gives what it has: the balance goes to 0 (never below) and
 * the rest is added to the wallet's unbilled tokens for billing follow-up. An empty or blocked
 * wallet refuses the charge; the guards before the next run then answer WALLET_BLOCKED.
 */

/** How far back a repeated operation id is recognised: far more than the retries of one operation. */
export const RECENT_WALLET_OPERATIONS = 200;

/** The field names of one wallet in its owner's document. */
export interface WalletFields {
  balance: string;
  /** What was funded in all (seed, top-ups): a new funded total moves the balance by the difference. */
  funded: string;
  unbilled: string;
  recentOperations: string;
  /** Set where the wallet can be blocked explicitly (AI employees). */
  blocked?: string;
}

export interface WalletCharge {
  tokens: number;
  /** Idempotency key: a charge whose operation id is among the recent ones is not applied again. */
  operationId: string;
}

export interface WalletChargeOutcome {
  /** `charged` now, `repeated` (charged before), or `refused` (the wallet was empty or blocked). */
  result: 'charged' | 'repeated' | 'refused';
  /** The balance after the charge (or as found). */
  balance: number;
  /** Tokens of this charge the balance could not cover (recorded as unbilled). */
  unbilled: number;
}

/** Rounds are only lost to concurrent charges of the same wallet, each of which moved it on. */
const MAX_ROUNDS = 1000;

type Stored = Record<string, unknown>;

/** Charges the wallet of the document `owner` selects; null when there is no such document. */
export async function chargeWallet(model: Model<any>, owner: Record<string, unknown>, fields: WalletFields, charge: WalletCharge): Promise<WalletChargeOutcome | null> {
  const projection = { [fields.balance]: 1, [fields.recentOperations]: 1, ...(fields.blocked ? { [fields.blocked]: 1 } : {}) };
  const chargeable = { ...owner, [fields.recentOperations]: { $ne: charge.operationId }, ...(fields.blocked ? { [fields.blocked]: { $ne: true } } : {}) };
  const recordOperation = { [fields.recentOperations]: { $each: [charge.operationId], $slice: -RECENT_WALLET_OPERATIONS } };
  const balanceOf = (stored: Stored) => Number(stored[fields.balance] ?? 0);

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const charged = await model
      .findOneAndUpdate({ ...chargeable, [fields.balance]: { $gte: charge.tokens, $gt: 0 } }, { $inc: { [fields.balance]: -charge.tokens }, $push: recordOperation }, { new: true, projection })
      .lean<Stored>();
    if (charged) return { result: 'charged', balance: balanceOf(charged), unbilled: 0 };

    const current = await model.findOne(owner, projection).lean<Stored>();
    if (!current) return null;
    const balance = balanceOf(current);
    if (((current[fields.recentOperations] as string[] | undefined) ?? []).includes(charge.operationId)) return { result: 'repeated', balance, unbilled: 0 };
    if ((fields.blocked && current[fields.blocked] === true) || balance <= 0) return { result: 'refused', balance, unbilled: 0 };
    if (balance >= charge.tokens) continue;

    // Short of the charge: the filter holds the balance read, so what is left is taken exactly once.
    const unbilled = charge.tokens - balance;
    const drained = await model
      .findOneAndUpdate({ ...chargeable, [fields.balance]: balance }, { $set: { [fields.balance]: 0 }, $inc: { [fields.unbilled]: unbilled }, $push: recordOperation }, { new: true, projection })
      .lean<Stored>();
    if (drained) return { result: 'charged', balance: 0, unbilled };
  }
  throw new Error(`wallet charge ${charge.operationId}: the wallet kept changing for ${MAX_ROUNDS} rounds`);
}

/**
 * Sets the wallet's funded total (a seed load): the balance moves by the difference, so tokens
 * already spent stay spent, and loading the same total again changes nothing. True when it changed.
 */
export async function fundWallet(model: Model<any>, owner: Record<string, unknown>, fields: WalletFields, fundedTokens: number): Promise<boolean> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const current = await model.findOne(owner, { [fields.funded]: 1 }).lean<Stored>();
    if (!current) return false;
    const funded = Number(current[fields.funded] ?? 0);
    if (funded === fundedTokens) return false;
    const moved = await model.updateOne({ ...owner, [fields.funded]: funded }, { $set: { [fields.funded]: fundedTokens }, $inc: { [fields.balance]: fundedTokens - funded } });
    if (moved.modifiedCount === 1) return true;
  }
  throw new Error(`wallet funding: the wallet kept changing for ${MAX_ROUNDS} rounds`);
}
