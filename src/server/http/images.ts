/**
 * GET /images/...: the images stored in the database (bank and provider logos, advertisement images,
 * app users' documents), by the path a record holds. The console adds a cache-busting query (`?t=`),
 * which is ignored here. Only PNG and JPEG are served (never SVG, which could carry script), with
 * `x-content-type-options: nosniff`. Paths carry a random part, so they cannot be guessed.
 * Identity documents (images/kyc/, images/app-users/) need the signature the lists hand out
 * (`?exp=&sig=`, src/server/http/imageUrls.ts): without it, tampered, expired or made for another
 * path, 403 before the database is asked (so the answer says nothing about whether the path exists).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import { IMAGE_PATH } from '../../api/imageUpload';
import { sendError } from './reply';
import { isPrivateImagePath, type ImageUrlSigner } from './imageUrls';

const SERVED_TYPES = new Set(['image/png', 'image/jpeg']);

export function registerImages(app: FastifyInstance, db: Db, signer: ImageUrlSigner): void {
  app.get('/images/*', async (request, reply) => {
    const path = `images/${(request.params as { '*': string })['*']}`;
    if (!IMAGE_PATH.test(path)) return sendError(reply, 404, 'Not found');
    const isPrivate = isPrivateImagePath(path);
    if (isPrivate) {
      const query = request.query as Record<string, unknown>;
      if (!signer.verify(path, query.exp, query.sig)) return sendError(reply, 403, 'Forbidden: this image needs a current signed link; reload the page');
    }
    const image = await db.one<{ content_type: string; bytes: Uint8Array }>('SELECT content_type, bytes FROM images WHERE path = $1', [path]);
    if (!image || !SERVED_TYPES.has(image.content_type)) return sendError(reply, 404, 'Not found');
    return reply
      .code(200)
      .header('content-type', image.content_type)
      .header('cache-control', isPrivate ? 'private, no-store' : 'private, max-age=86400, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
      .send(Buffer.from(image.bytes));
  });
}
