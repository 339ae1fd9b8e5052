import { ConfirmUploadRequestSchema, ConfirmUploadResponseSchema, RequestUploadRequestSchema, RequestUploadResponseSchema } from './files.schema';
import { type PublicEndpoint, definePublicEndpoint } from './public-endpoint';

const TAG = 'Files';

export const requestUploadEndpoint = definePublicEndpoint({
  operationId: 'requestFileUpload',
  method: 'post',
  path: '/files/request-upload',
  summary: 'Reserve a file upload and get a signed URL to PUT its content to',
  description:
    'The file stays pending until confirmed. Pending and confirmed uploads count against the business storage quota (quota 0 disables uploads); when it is reached, expired unconfirmed uploads are removed first (507 STORAGE_QUOTA_CLEANUP_INSUFFICIENT when that frees too little). At most 20 uploads may await confirmation (429 with Retry-After). The upload URL accepts a PUT for 15 minutes; an unconfirmed upload is removed after 1 hour.',
  tag: TAG,
  successStatus: 201,
  successDescription: 'The upload is reserved; PUT the content to upload.url, then confirm it.',
  errorCodes: ['INVALID_FILE_TYPE', 'FILE_TOO_LARGE', 'STORAGE_QUOTA_EXCEEDED', 'STORAGE_QUOTA_CLEANUP_INSUFFICIENT', 'TOO_MANY_PENDING_UPLOADS'],
  schemas: { body: RequestUploadRequestSchema, response: RequestUploadResponseSchema },
  requestExample: { body: { module: 'api_messages', file_name: 'receipt.pdf', mime_type: 'application/pdf', size: 48213 } },
});

export const confirmUploadEndpoint = definePublicEndpoint({
  operationId: 'confirmFileUpload',
  method: 'post',
  path: '/files/confirm',
  summary: 'Confirm an uploaded file so messages and templates can use it',
  description:
    'The content must have arrived whole (FILE_NOT_UPLOADED otherwise), with exactly the declared size (SIZE_MISMATCH) and content of the declared type, sniffed from its first bytes (MIME_MISMATCH). A refused upload stays pending: PUT the right content again and confirm again.',
  tag: TAG,
  successStatus: 200,
  successDescription: 'The file is confirmed.',
  errorCodes: ['FILE_NOT_FOUND', 'FILE_NOT_UPLOADED', 'SIZE_MISMATCH', 'MIME_MISMATCH'],
  schemas: { body: ConfirmUploadRequestSchema, response: ConfirmUploadResponseSchema },
  requestExample: { body: { file_uuid: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f' } },
});

export const FILE_ENDPOINTS: readonly PublicEndpoint[] = [requestUploadEndpoint, confirmUploadEndpoint];
