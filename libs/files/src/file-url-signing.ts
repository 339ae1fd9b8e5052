import { FILE_TRANSFER_PATHS } from '@cmsg/api-schemas';
import { CatalogError } from '@cmsg/errors';
import { hmacSha256Base64Url, safeEqual } from '@cmsg/platform';
import { z } from 'zod';

/**
 * Signed file URLs: `<PUBLIC_BASE_URL>/v1/uploads/<token>` (PUT the content) and
 * `<PUBLIC_BASE_URL>/v1/downloads/<token>` (GET it). The token is `base64url(json).hmac`, keyed by
 * SIGNING_SECRET under a purpose prefix, so an upload token never opens a download, and neither
 * can pass for a list cursor signed by the same secret.
 */
export const UPLOAD_PATH_PREFIX = `${FILE_TRANSFER_PATHS.upload}/`;
export const DOWNLOAD_PATH_PREFIX = `${FILE_TRANSFER_PATHS.download}/`;

export type FileUrlPurpose = 'upload' | 'download';

/** What a valid token grants: one file of one business, until `expiresAt`. */
export interface FileGrant {
  purpose: FileUrlPurpose;
  businessId: string;
  fileUuid: string;
  /** Upload: the declared size, so the gateway can refuse a longer body before reading it. */
  size: number;
  expiresAt: Date;
}

const grantPayloadSchema = z.object({
  p: z.enum(['upload', 'download']),
  b: z.string().min(1),
  f: z.string().min(1),
  s: z.number().int().nonnegative(),
  e: z.number().int().positive(),
});

const INVALID_URL = 'The file URL is invalid or has expired; request a new one.';

export class FileUrlSigner {
  constructor(
    private readonly secret: string,
    private readonly publicBaseUrl: string,
  ) {}

  sign(grant: FileGrant): string {
    const payload = Buffer.from(
      JSON.stringify({ p: grant.purpose, b: grant.businessId, f: grant.fileUuid, s: grant.size, e: Math.floor(grant.expiresAt.getTime() / 1000) }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The absolute URL a client or the chat platform uses. */
  url(grant: FileGrant): string {
    const prefix = grant.purpose === 'upload' ? UPLOAD_PATH_PREFIX : DOWNLOAD_PATH_PREFIX;
    return `${this.publicBaseUrl.replace(/\/+$/, '')}${prefix}${this.sign(grant)}`;
  }

  /**
   * The grant a token carries, when its signature holds, its purpose is the expected one and it
   * has not expired; otherwise 403 INVALID_REQUEST (the URL, not the file, is what is wrong).
   */
  verify(token: string, purpose: FileUrlPurpose, now: Date = new Date()): FileGrant {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0 || !safeEqual(mac, this.mac(payload))) throw invalidUrl();
    let decoded: z.infer<typeof grantPayloadSchema>;
    try {
      decoded = grantPayloadSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    } catch {
      throw invalidUrl();
    }
    const expiresAt = new Date(decoded.e * 1000);
    if (decoded.p !== purpose || expiresAt.getTime() <= now.getTime()) throw invalidUrl();
    return { purpose: decoded.p, businessId: decoded.b, fileUuid: decoded.f, size: decoded.s, expiresAt };
  }

  private mac(payload: string): string {
    return hmacSha256Base64Url(this.secret, `cmsg.files.v1:${payload}`);
  }
}

function invalidUrl(): CatalogError {
  return new CatalogError('INVALID_REQUEST', INVALID_URL, { httpStatus: 403 });
}
