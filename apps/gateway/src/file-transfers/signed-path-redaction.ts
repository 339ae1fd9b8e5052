import { FILE_TRANSFER_PATHS } from '@cmsg/api-schemas';

export const REDACTED_TOKEN = '[redacted]';

const SIGNED_PREFIXES = [FILE_TRANSFER_PATHS.upload, FILE_TRANSFER_PATHS.download];

/**
 * A request path fit for the logs: the token of a signed upload or download URL is the credential
 * (its signature grants the file to whoever holds it until it expires), so it never reaches a log.
 */
export function redactSignedFilePath(path: string): string {
  for (const prefix of SIGNED_PREFIXES) {
    if (path.startsWith(`${prefix}/`)) return `${prefix}/${REDACTED_TOKEN}`;
  }
  return path;
}
