import { CatalogError } from '@cmsg/errors';

/** What makes a whole audience file unusable (a bad row only skips that row). */
export type AudienceFileProblem =
  | 'no_header'
  | 'malformed_header'
  | 'empty_column_name'
  | 'duplicate_column'
  | 'missing_phone_column'
  | 'too_large';

/**
 * A catalog error (400) naming the file's problem, so the API maps it like any other; `problem`
 * lets a caller tell the cases apart without reading the message.
 */
export class AudienceFileError extends CatalogError {
  readonly problem: AudienceFileProblem;

  constructor(problem: AudienceFileProblem, detail: string) {
    super(problem === 'too_large' ? 'FILE_TOO_LARGE' : 'INVALID_REQUEST', `Invalid request: audience.file_uuid: ${detail}.`);
    this.name = 'AudienceFileError';
    this.problem = problem;
  }
}
