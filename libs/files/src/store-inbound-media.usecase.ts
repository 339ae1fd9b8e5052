import { CatalogError } from '@cmsg/errors';
import type { BusinessScope, FileEntity } from '@cmsg/dal';
import { SNIFF_BYTES } from './content-sniffing';
import { type FileCategory, categoryOf, normalizeMimeType } from './file-types';
import type { FilesContext } from './files-context';
import type { FileRecords } from './ports';

/** The platform's own cap on what a customer can send (documents, 100 MB). */
export const MAX_INBOUND_MEDIA_BYTES = 100 * 1024 * 1024;

export interface InboundMediaInput {
  /** Deterministic (derived from the provider's media id), so a redelivery stores it once. */
  fileUuid: string;
  messageId: string;
  mimeType: string;
  fileName: string;
  content: AsyncIterable<Buffer>;
}

/**
 * Keeps the media of an inbound message as a confirmed file of module inbound_media (outside the
 * upload quota: what customers send is always kept). Idempotent by file uuid.
 */
/** What keeping inbound media reads and writes. */
export type StoreInboundMediaContext = Pick<FilesContext, 'store' | 'now'> & { files: Pick<FileRecords, 'findById' | 'insertIfAbsent'> };

export async function storeInboundMedia(context: StoreInboundMediaContext, scope: BusinessScope, input: InboundMediaInput): Promise<FileEntity> {
  const existing = await context.files.findById(scope, input.fileUuid);
  if (existing) return existing;
  const stored = await context.store.write(input.content, {
    filename: input.fileUuid,
    metadata: { business_id: scope.businessId, file_uuid: input.fileUuid, module: 'inbound_media' },
    maxBytes: MAX_INBOUND_MEDIA_BYTES,
    headBytes: SNIFF_BYTES,
    tooLong: (maxBytes) => new CatalogError('FILE_TOO_LARGE', `The inbound media exceeds ${maxBytes} bytes.`),
  });
  const now = context.now();
  const mimeType = normalizeMimeType(input.mimeType);
  const category: FileCategory | 'other' = categoryOf(mimeType) ?? 'other';
  const inserted = await context.files
    .insertIfAbsent(scope, {
      _id: input.fileUuid,
      module: 'inbound_media',
      status: 'confirmed',
      file_name: input.fileName,
      mime_type: mimeType,
      category,
      size: stored.size,
      content_id: stored.contentId,
      upload: { state: 'complete', content_id: stored.contentId, received_bytes: stored.size, sha256: stored.sha256, finished_at: now },
      message_id: input.messageId,
      created_at: now,
      confirmed_at: now,
      updated_at: now,
    })
    .catch(async (error: unknown) => {
      await context.store.delete(stored.contentId);
      throw error;
    });
  // A concurrent delivery of the same media stored it first: its content is the one kept.
  if (!inserted) await context.store.delete(stored.contentId);
  const file = await context.files.findById(scope, input.fileUuid);
  if (!file) throw new Error(`inbound media file ${input.fileUuid} vanished right after it was stored`);
  return file;
}
