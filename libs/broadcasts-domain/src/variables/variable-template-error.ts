import { CatalogError } from '@cmsg/errors';

/** A broadcast variable whose placeholder cannot be read (400 when the broadcast is created). */
export class VariableTemplateError extends CatalogError {
  /** The position of the variable in the request's `variables` array. */
  readonly position: number;
  /** The placeholder (or the unclosed part of one) as written. */
  readonly placeholder: string;

  constructor(position: number, placeholder: string, problem: string) {
    super('INVALID_REQUEST', `Invalid request: variables[${position}].value: ${problem} in ${placeholder}.`);
    this.name = 'VariableTemplateError';
    this.position = position;
    this.placeholder = placeholder;
  }
}
