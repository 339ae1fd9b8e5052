import { CatalogError } from '@cmsg/errors';

/** The house form of a 400: `Invalid request: <path>: <problem>.`, as the gateway words a schema failure. */
export function invalidRequest(path: string, problem: string): CatalogError {
  return new CatalogError('INVALID_REQUEST', `Invalid request: ${path}: ${problem}.`);
}
