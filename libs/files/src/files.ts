import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { type BusinessScope, type FileEntity, businessScope } from '@cmsg/dal';
import { type ConfirmedFile, confirmUpload } from './confirm-upload.usecase';
import { type CleanupResult, sweepExpiredUploads } from './expired-uploads';
import { type FileDownload, type FileForSend, fileForSend, openDownload, signedDownloadUrl } from './file-downloads';
import { FileUrlSigner } from './file-url-signing';
import { DEFAULT_FILE_POLICY, type FilePolicy, type FilesContext } from './files-context';
import { receiveUpload } from './receive-upload.usecase';
import { type RequestUploadCommand, type RequestedUpload, requestUpload } from './request-upload.usecase';
import type { FilesPorts } from './ports';
import { type InboundMediaInput, storeInboundMedia } from './store-inbound-media.usecase';
import { type StoredFileFacts, describeFile, openConfirmedContent } from './stored-files';

export interface FilesConfig {
  /** SIGNING_SECRET. */
  signingSecret: string;
  /** PUBLIC_BASE_URL: where clients and the chat platform reach the gateway. */
  publicBaseUrl: string;
  /** The files collection, the businesses' storage accounts and the content store, built by the app. */
  ports: FilesPorts;
  policy?: Partial<FilePolicy>;
  now?: () => Date;
  newId?: () => string;
}

/** Every file operation of a process, bound to its configuration (built once at boot). */
export class Files {
  readonly context: FilesContext;

  constructor(config: FilesConfig) {
    this.context = {
      signer: new FileUrlSigner(config.signingSecret, config.publicBaseUrl),
      files: config.ports.files,
      businesses: config.ports.businesses,
      store: config.ports.store,
      policy: { ...DEFAULT_FILE_POLICY, ...config.policy },
      now: config.now ?? (() => new Date()),
      newId: config.newId ?? randomUUID,
    };
  }

  requestUpload(scope: BusinessScope, command: RequestUploadCommand): Promise<RequestedUpload> {
    return requestUpload(this.context, scope, command);
  }

  receiveUpload(scope: BusinessScope, fileUuid: string, content: AsyncIterable<Buffer>): Promise<{ receivedBytes: number }> {
    return receiveUpload(this.context, scope, fileUuid, content);
  }

  /** The PUT of a signed upload URL; its token names the business and the file. */
  async receiveUploadByToken(token: string, content: AsyncIterable<Buffer>): Promise<{ receivedBytes: number }> {
    const grant = this.context.signer.verify(token, 'upload', this.context.now());
    return receiveUpload(this.context, businessScope(grant.businessId), grant.fileUuid, content);
  }

  confirmUpload(scope: BusinessScope, fileUuid: string): Promise<ConfirmedFile> {
    return confirmUpload(this.context, scope, fileUuid);
  }

  openDownload(scope: BusinessScope, fileUuid: string): Promise<FileDownload> {
    return openDownload(this.context, scope, fileUuid);
  }

  /** The GET of a signed download URL. */
  async openDownloadByToken(token: string): Promise<FileDownload> {
    const grant = this.context.signer.verify(token, 'download', this.context.now());
    return openDownload(this.context, businessScope(grant.businessId), grant.fileUuid);
  }

  /** A confirmed upload with a fresh signed link, for sends (text with file_uuid, template media headers). */
  fileForSend(scope: BusinessScope, fileUuid: string): Promise<FileForSend> {
    return fileForSend(this.context, scope, fileUuid);
  }

  signedDownloadUrl(file: Pick<FileEntity, '_id' | 'business_id' | 'size'>): { url: string; expiresAt: Date } {
    return signedDownloadUrl(this.context, file);
  }

  storeInboundMedia(scope: BusinessScope, input: InboundMediaInput): Promise<FileEntity> {
    return storeInboundMedia(this.context, scope, input);
  }

  /** Any file of the business by uuid (module, status, type, size), or null. */
  describeFile(scope: BusinessScope, fileUuid: string): Promise<StoredFileFacts | null> {
    return describeFile(this.context, scope, fileUuid);
  }

  /** A confirmed file's bytes from byte `start` on (broadcast audience files, read in batches). */
  openConfirmedContent(scope: BusinessScope, fileUuid: string, start: number): Promise<Readable> {
    return openConfirmedContent(this.context, scope, fileUuid, start);
  }

  readContent(file: Pick<FileEntity, 'content_id'>, maxBytes: number): Promise<Buffer> {
    if (!file.content_id) return Promise.resolve(Buffer.alloc(0));
    return this.context.store.readAll(file.content_id, maxBytes);
  }

  sweepExpiredUploads(): Promise<CleanupResult> {
    return sweepExpiredUploads(this.context);
  }
}
