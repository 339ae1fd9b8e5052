import type { AiEmployeeEntity, BusinessScope, WalletCharge, WalletChargeOutcome } from '@cmsg/dal';
import type { NamedObjects } from '../action-support/resolve-object-ref';

/** The AI employees by uuid or name, and their token wallets (AiEmployeeRepository in the app). */
export interface AiEmployeeStore extends NamedObjects<AiEmployeeEntity> {
  /** Null when the employee is not in the business; the charge is applied once per operation id. */
  chargeWallet(scope: BusinessScope, id: string, charge: WalletCharge): Promise<WalletChargeOutcome | null>;
}
