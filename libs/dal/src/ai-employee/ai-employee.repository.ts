import { type BusinessScope, scopedFilter } from '../shared/business-scope';
import type { UpsertCounts } from '../shared/bulk-upsert';
import { NamedTenantRepository } from '../shared/tenant-repository';
import { type WalletCharge, type WalletChargeOutcome, type WalletFields, chargeWallet, fundWallet } from '../shared/token-wallet';
import type { AiEmployeeEntity } from './ai-employee.entity';
import { AiEmployeeModel } from './ai-employee.schema';

const WALLET: WalletFields = {
  balance: 'wallet_tokens',
  funded: 'wallet_funded_tokens',
  unbilled: 'wallet_unbilled_tokens',
  recentOperations: 'wallet_recent_operation_ids',
  blocked: 'wallet_blocked',
};

export interface AiEmployeeSeedFields {
  id: string;
  name: string;
  nameKey: string;
  model: string;
  instructions: string;
  walletTokens: number;
}

export class AiEmployeeRepository extends NamedTenantRepository<AiEmployeeEntity> {
  constructor() {
    super(AiEmployeeModel);
  }

  /** Null when the employee does not exist in the business. */
  chargeWallet(scope: BusinessScope, id: string, charge: WalletCharge): Promise<WalletChargeOutcome | null> {
    return chargeWallet(AiEmployeeModel, scopedFilter(scope, { _id: id }), WALLET, charge);
  }

  /** Upserts the employees and sets each wallet's funded total (the balance moves by the difference, see fundWallet). */
  async upsertFromSeed(scope: BusinessScope, employees: readonly AiEmployeeSeedFields[]): Promise<UpsertCounts> {
    const counts = await this.upsertMany(
      scope,
      employees.map((employee) => ({
        id: employee.id,
        set: { name: employee.name, name_key: employee.nameKey, model: employee.model, instructions: employee.instructions },
        setOnInsert: { wallet_tokens: employee.walletTokens, wallet_funded_tokens: employee.walletTokens },
      })),
    );
    for (const employee of employees) {
      if (await fundWallet(AiEmployeeModel, scopedFilter(scope, { _id: employee.id }), WALLET, employee.walletTokens)) counts.updated += 1;
    }
    return counts;
  }
}
