import { pipeline } from 'node:stream/promises';
import { FILE_TRANSFER_PATHS } from '@cmsg/api-schemas';
import type { Express } from 'express';
import { methodNotAllowedMiddleware } from '../middleware/fallback.middleware';
import type { FileContentForwarder } from './file-content-forwarder';

/**
 * The signed file URLs (CONTRACT 5), outside the business scope: the token in the path is the
 * credential, checked by the files service. Bodies stream in and out; none is parsed or buffered.
 */
export function registerFileTransferRoutes(app: Express, forwarder: FileContentForwarder): void {
  app
    .route(`${FILE_TRANSFER_PATHS.upload}/:token`)
    .put(async (req, res) => {
      try {
        await forwarder.upload(String(req.params['token']), req);
      } catch (error) {
        // The rest of a refused body is not read: answer, then close the connection.
        res.setHeader('Connection', 'close');
        throw error;
      }
      res.status(204).end();
    })
    .all(methodNotAllowedMiddleware(['put']));

  app
    .route(`${FILE_TRANSFER_PATHS.download}/:token`)
    .get(async (req, res) => {
      const download = await forwarder.download(String(req.params['token']));
      res.status(200);
      res.setHeader('Content-Type', download.start.mime_type);
      res.setHeader('Content-Length', String(download.start.size));
      res.setHeader('Content-Disposition', contentDisposition(download.start.file_name));
      res.setHeader('Cache-Control', 'private, no-store');
      // Uploaded content is served from the API's origin: browsers must take the sniffed-and-checked type as is.
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // A failure once bytes went out can only cut the response short (the length tells the client).
      await pipeline(download.content, res).catch(() => res.destroy());
    })
    .all(methodNotAllowedMiddleware(['get']));
}

/** RFC 6266: an ASCII fallback name, and the exact name RFC 5987-encoded. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
