import type { ConfirmUploadResponse, RequestUploadResponse } from '@cmsg/api-schemas';
import type { FileDescription, RequestUploadResponse as ProtoRequestUploadResponse } from '@cmsg/proto';
import { publicEnumValue, requiredField } from './upstream-fields';

export function toRequestUploadResponse(response: ProtoRequestUploadResponse): RequestUploadResponse {
  const upload = requiredField(response.upload, 'upload');
  return {
    file: { uuid: response.file_uuid, status: publicEnumValue(['pending'], response.status, 'status') },
    upload: { url: upload.url, method: publicEnumValue(['PUT'], upload.method, 'upload.method'), expires_at: upload.expires_at },
  };
}

export function toConfirmUploadResponse(file: FileDescription): ConfirmUploadResponse {
  return {
    file: { uuid: file.uuid, status: publicEnumValue(['confirmed'], file.status, 'status'), mime_type: file.mime_type, size: file.size, file_name: file.file_name },
  };
}
