import type { AiEmployeeEntity, BusinessScope } from '@cmsg/dal';
import type { AiEmployee } from '@cmsg/proto';
import { type ObjectRef, resolveObjectRef } from '../action-support/resolve-object-ref';
import { repositories } from '../repositories';

export type StoredAiEmployee = AiEmployeeEntity;

export function findAiEmployee(scope: BusinessScope, ref: ObjectRef): Promise<StoredAiEmployee> {
  return resolveObjectRef(repositories.aiEmployees, scope, ref, { notFound: 'AI_EMPLOYEE_NOT_FOUND', ambiguous: 'AMBIGUOUS_AI_EMPLOYEE' }, 'AI employee');
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
    // An empty wallet is blocked until it is topped up.
    wallet_blocked: employee.wallet_blocked || employee.wallet_tokens <= 0,
  };
}
