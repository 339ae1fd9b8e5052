import { AiEmployeeModel, type BusinessScope } from '@cmsg/dal';
import type { AiEmployee } from '@cmsg/proto';
import { type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';

export interface StoredAiEmployee {
  _id: string;
  name: string;
  model: string;
  instructions?: string | null;
  wallet_tokens: number;
  wallet_blocked: boolean;
}

export function findAiEmployee(scope: BusinessScope, ref: ObjectRef): Promise<StoredAiEmployee> {
  return resolveObjectRef<StoredAiEmployee>(AiEmployeeModel, scope, ref, { notFound: 'AI_EMPLOYEE_NOT_FOUND', ambiguous: 'AMBIGUOUS_AI_EMPLOYEE' }, 'AI employee');
}

/** ResolveAiEmployee: what the actions-runner needs to run an employee (preflight and AI runs). */
export async function resolveAiEmployee(scope: BusinessScope, ref: ObjectRef): Promise<AiEmployee> {
  const employee = await findAiEmployee(scope, ref);
  return {
    uuid: employee._id,
    name: employee.name,
    model: employee.model,
    instructions: employee.instructions ?? '',
    wallet_tokens: employee.wallet_tokens,
    wallet_blocked: employee.wallet_blocked,
  };
}
