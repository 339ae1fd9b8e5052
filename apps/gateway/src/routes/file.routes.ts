import { confirmUploadEndpoint, requestUploadEndpoint } from '@cmsg/api-schemas';
import { toConfirmUploadResponse, toRequestUploadResponse } from '../mappers/file.mapper';
import { type BusinessRoute, businessRoute } from './business-route';

/** CONTRACT 5: the upload's bytes go to the signed URL (file-transfer.routes.ts), not through here. */
export const fileRoutes: readonly BusinessRoute[] = [
  businessRoute(requestUploadEndpoint, {
    call: ({ files }, { caller, body }) => files.requestUpload({ caller, module: body.module, file_name: body.file_name, mime_type: body.mime_type, size: body.size }),
    toResponse: toRequestUploadResponse,
  }),
  businessRoute(confirmUploadEndpoint, {
    call: ({ files }, { caller, body }) => files.confirmUpload({ caller, file_uuid: body.file_uuid }),
    toResponse: toConfirmUploadResponse,
  }),
];
