import { CatalogError } from '@cmsg/errors';

/** A `send_window` that cannot be used (400 when the broadcast is created). */
export class SendWindowError extends CatalogError {
  constructor(path: string, problem: string) {
    super('INVALID_REQUEST', `Invalid request: ${path}: ${problem}.`);
    this.name = 'SendWindowError';
  }
}
