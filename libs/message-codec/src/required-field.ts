import { CatalogError } from '@cmsg/errors';

/** An RPC member the send cannot do without: INVALID_REQUEST naming it when absent. */
export function requiredField<Value>(value: Value | undefined, field: string): Value {
  if (value === undefined) throw new CatalogError('INVALID_REQUEST', `${field} is required.`);
  return value;
}
