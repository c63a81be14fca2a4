import { Router } from 'express';
import { isAwaitingUpload, readPublicFile, type FilesContext } from '../domain/files/service.js';
import { LocalFileStorage, UploadTokenInvalid } from '../integrations/local-disk/storage.js';
import { AppError } from '../domain/platform/errors.js';

/**
 * Tollgate's own file routes, outside the Polar-compatible /v1: the PUT target of the local store's
 * upload URLs (authenticated by the signed token in the URL, not by a session) and the public
 * bytes of product media and avatars.
 */
export function createFilesRouter(ctx: FilesContext): Router {
  const router = Router();
  const storage = ctx.storage;

  if (storage instanceof LocalFileStorage) {
    router.put('/upload/:token', async (req, res) => {
      try {
        const claim = storage.verify(req.params.token);
        // A deleted or completed file takes no more parts, even with a URL that has not expired.
        if (!(await isAwaitingUpload(ctx, claim.fileId)))
          throw new AppError('ResourceNotFound', 'File not found');
        const { etag } = await storage.receivePart(req.params.token, req);
        res.set('ETag', `"${etag}"`).status(200).end();
      } catch (error) {
        if (error instanceof UploadTokenInvalid) {
          throw new AppError(error.status === 413 ? 'PayloadTooLarge' : 'NotPermitted', error.message);
        }
        throw error;
      }
    });
  }

  if (storage instanceof LocalFileStorage) {
    // The local store's download links (invoices); S3 answers its own presigned URLs.
    router.get('/download/:token', async (req, res) => {
      const claim = storage.verifyDownload(req.params.token);
      const body = claim ? await storage.read(claim.path) : null;
      if (!claim || !body) throw new AppError('ResourceNotFound', 'File not found');
      res.set({
        'Content-Type': claim.mimeType,
        'Content-Disposition': `attachment; filename="${claim.filename.replace(/["\\]/g, '')}"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      body.pipe(res);
    });
  }

  router.get('/public/:id', async (req, res) => {
    const id = req.params.id;
    const found = /^[0-9a-f-]{36}$/i.test(id) ? await readPublicFile(ctx, id) : null;
    if (!found) throw new AppError('ResourceNotFound', 'File not found');
    res.set({
      'Content-Type': found.row.mimeType,
      'Content-Length': String(found.row.size),
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      // The MIME type is the uploader's word: an SVG with scripts must not run on our origin.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      ...(found.row.checksumSha256Hex ? { ETag: `"${found.row.checksumSha256Hex}"` } : {}),
    });
    found.body.pipe(res);
  });

  return router;
}
