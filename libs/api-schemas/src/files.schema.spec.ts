import { catalogCodeOf } from './catalog-coded';
import { RequestUploadRequestSchema } from './files.schema';

const MIB = 1024 * 1024;
const issuesOf = (body: Record<string, unknown>) =>
  RequestUploadRequestSchema.safeParse({ file_name: 'f', ...body }).error?.issues.map((issue) => [issue.path.join('.'), catalogCodeOf(issue) ?? issue.code]) ?? [];

describe('RequestUploadRequestSchema: each module with its own types and caps', () => {
  it.each([
    ['api_messages', 'image/png', 5 * MIB],
    ['api_messages', 'text/plain', 5 * MIB],
    ['broadcast_audiences', 'text/csv', 100 * MIB],
    ['broadcast_audiences', 'Application/X-NDJSON; charset=utf-8', 100 * MIB],
  ])('%s takes %s up to its cap', (module, mimeType, cap) => {
    expect(issuesOf({ module, mime_type: mimeType, size: cap })).toEqual([]);
    expect(issuesOf({ module, mime_type: mimeType, size: cap + 1 })).toEqual([['size', 'FILE_TOO_LARGE']]);
  });

  it.each([
    ['api_messages', 'text/csv'],
    ['api_messages', 'application/x-ndjson'],
    ['broadcast_audiences', 'image/png'],
    ['broadcast_audiences', 'text/plain'],
  ])('%s refuses %s: INVALID_FILE_TYPE', (module, mimeType) => {
    expect(issuesOf({ module, mime_type: mimeType, size: 10 })).toEqual([['mime_type', 'INVALID_FILE_TYPE']]);
  });

  it('refuses a type no module takes and a module that is not an upload module', () => {
    expect(issuesOf({ module: 'broadcast_audiences', mime_type: 'application/json', size: 10 })).toEqual([['mime_type', 'INVALID_FILE_TYPE']]);
    expect(issuesOf({ module: 'inbound_media', mime_type: 'image/png', size: 10 })).toEqual([['module', 'invalid_value']]);
  });
});
