import type { AiEmployeeEntity, BusinessScope } from '@cmsg/dal';
import type { AiEmployee } from '@cmsg/proto';
import { type NamedObjects, type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';

export type StoredAiEmployee = AiEmployeeEntity;

export function findAiEmployee(employees: NamedObjects<StoredAiEmployee>, scope: BusinessScope, ref: ObjectRef): Promise<StoredAiEmployee> {
  return resolveObjectRef(employees, scope, ref, { notFound: 'AI_EMPLOYEE_NOT_FOUND', ambiguous: 'AMBIGUOUS_AI_EMPLOYEE' }, 'AI employee');
}

/** ResolveAiEmployee: what the actions-runner needs to run an employee (preflight and AI runs). */
export async function resolveAiEmployee(employees: NamedObjects<StoredAiEmployee>, scope: BusinessScope, ref: ObjectRef): Promise<AiEmployee> {
  const employee = await findAiEmployee(employees, scope, ref);
  return {
    uuid: employee._id,
    name: employee.name,
    model: employee.model,
    instructions: employee.instructions ?? '',
    wallet_tokens: employee.wallet_tokens,
    // An empty wallet is blocked until it is topped up.
    wallet_blocked: employee.wallet_blocked || employee.wallet_tokens <= 0,
  };
}
