import { AiEmployeeModel, aiEmployeeWallet, type BusinessScope, walletBalance } from '@cmsg/dal';
import type { AiEmployee } from '@cmsg/proto';
import { type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';

export interface StoredAiEmployee {
  _id: string;
  name: string;
  model: string;
  instructions?: string | null;
  wallet_funded_tokens: number;
  wallet_blocked: boolean;
}

export function findAiEmployee(scope: BusinessScope, ref: ObjectRef): Promise<StoredAiEmployee> {
  return resolveObjectRef<StoredAiEmployee>(AiEmployeeModel, scope, ref, { notFound: 'AI_EMPLOYEE_NOT_FOUND', ambiguous: 'AMBIGUOUS_AI_EMPLOYEE' }, 'AI employee');
}

/** ResolveAiEmployee: what the actions-runner needs to run an employee (preflight and AI runs). */
export async function resolveAiEmployee(scope: BusinessScope, ref: ObjectRef): Promise<AiEmployee> {
  const employee = await findAiEmployee(scope, ref);
  const balance = await walletBalance(scope, aiEmployeeWallet(employee._id), employee.wallet_funded_tokens);
  return {
    uuid: employee._id,
    name: employee.name,
    model: employee.model,
    instructions: employee.instructions ?? '',
    wallet_tokens: balance,
    // An empty wallet is blocked until it is topped up.
    wallet_blocked: employee.wallet_blocked || balance <= 0,
  };
}
