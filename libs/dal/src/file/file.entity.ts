import type { Types } from 'mongoose';

/** The id of a file's bytes in the GridFS bucket (FileContentStore). */
export type ContentId = Types.ObjectId;

/** api_messages and broadcast_audiences: uploads of the public API; inbound_media: media customers sent. */
export const FILE_MODULES = ['api_messages', 'broadcast_audiences', 'inbound_media'] as const;
export type FileModule = (typeof FILE_MODULES)[number];

/** pending: requested, content may arrive; confirmed: usable (sends, downloads); expired: being removed. */
export type FileStatus = 'pending' | 'confirmed' | 'expired';

/** none: no content yet; receiving: a PUT in progress; complete: the last PUT ended; partial: it broke off. */
export type UploadState = 'none' | 'receiving' | 'complete' | 'partial';

export interface UploadAttempt {
  state: UploadState;
  attempt_id: string | null;
  content_id: ContentId | null;
  received_bytes: number;
  sniffed_mime_types: string[];
  sha256: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface FileEntity {
  _id: string;
  business_id: string;
  module: FileModule;
  status: FileStatus;
  file_name: string;
  mime_type: string;
  category: string;
  size: number;
  content_id: ContentId | null;
  upload: UploadAttempt;
  pending_expires_at: Date | null;
  message_id: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  updated_at: Date;
}
