import { type AiEmployeeEntity, type BusinessScope, type WalletCharge, type WalletChargeOutcome, nameLookupKey } from '@cmsg/dal';
import type { AiEmployeeStore } from '../ai-assignment/ai-employee-store';
import { InMemoryNamedObjects } from './in-memory-named-objects';

/** An AI employee with a funded wallet; `overrides` sets what a spec cares about. */
export function aiEmployeeRow(overrides: Partial<AiEmployeeEntity> & Pick<AiEmployeeEntity, '_id' | 'business_id' | 'name'>): AiEmployeeEntity {
  return {
    name_key: nameLookupKey(overrides.name),
    model: 'gpt-test',
    instructions: '',
    wallet_tokens: 1000,
    wallet_funded_tokens: 1000,
    wallet_unbilled_tokens: 0,
    wallet_recent_operation_ids: [],
    wallet_blocked: false,
    ...overrides,
  };
}

/**
 * The AI employees in memory, their wallets charged one at a time with the outcomes of
 * libs/dal shared/token-wallet.ts (the $inc rounds that make it safe under contention are the
 * repository's, tested against MongoDB).
 */
export class InMemoryAiEmployees extends InMemoryNamedObjects<AiEmployeeEntity> implements AiEmployeeStore {
  async chargeWallet(scope: BusinessScope, id: string, charge: WalletCharge): Promise<WalletChargeOutcome | null> {
    const employee = await this.findById(scope, id);
    if (!employee) return null;
    const balance = employee.wallet_tokens;
    if (employee.wallet_recent_operation_ids.includes(charge.operationId)) return { result: 'repeated', balance, unbilled: 0 };
    if (employee.wallet_blocked || balance <= 0) return { result: 'refused', balance, unbilled: 0 };
    employee.wallet_recent_operation_ids.push(charge.operationId);
    const unbilled = Math.max(0, charge.tokens - balance);
    employee.wallet_tokens = balance - charge.tokens + unbilled;
    employee.wallet_unbilled_tokens += unbilled;
    return { result: 'charged', balance: employee.wallet_tokens, unbilled };
  }
}
