/**
 * The image store: images live in the `images` table and are served by path (GET /<path>, see
 * src/server/http/images.ts). Paths carry a random part, so they cannot be guessed, and an image is
 * never changed in place: a new upload gets a new path.
 */
import { randomBytes } from 'node:crypto';
import { contentTypeOf, extensionOf, readImageValue, type ImageFormat, type ImageRule } from '../../api/imageUpload';
import { pixelBudgetProblem } from '../../domain/imageBudget';
import type { Db } from '../db/db';
import { HttpError } from '../http/httpError';

/** Stores the bytes under a fresh path in the folder and returns the path. */
export async function storeImage(db: Db, folder: string, bytes: Uint8Array, format: ImageFormat, at: Date, name = 'image'): Promise<string> {
  const safeName = name.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'image';
  const path = `images/${folder}/${safeName}-${randomBytes(8).toString('hex')}.${extensionOf[format]}`;
  await db.query('INSERT INTO images (path, content_type, bytes, created_at) VALUES ($1, $2, $3, $4)', [path, contentTypeOf[format], Buffer.from(bytes), at]);
  return path;
}

export interface UploadField {
  /** The request field, named in the 400 message ('logo', 'images.0.image'). */
  readonly field: string;
  readonly rule: ImageRule;
  readonly invalidMessage: string;
  /** Stored paths the value may name (the record's current images, on edit). */
  readonly keep: readonly string[];
}

/**
 * An image value of a request as a stored path: a stored path the record already holds is kept; a
 * valid upload is stored now (in the caller's transaction); anything else is a 400 naming the field.
 */
export async function imagePathFor(db: Db, value: string, folder: string, name: string, f: UploadField, at: Date): Promise<string> {
  const image = readImageValue(value, f.rule);
  if (!image) throw new HttpError(400, `${f.field}: ${f.invalidMessage}`);
  if (image.kind === 'path') {
    if (!f.keep.includes(image.path)) throw new HttpError(400, `${f.field}: ${f.invalidMessage}`);
    return image.path;
  }
  // the request schemas refuse it already; checked again where bytes are stored, whoever calls
  const tooLarge = pixelBudgetProblem(image);
  if (tooLarge) throw new HttpError(400, `${f.field}: ${tooLarge}`);
  return storeImage(db, folder, image.bytes, image.format, at, name);
}

/** Deletes images (by path) that were uploaded for a request that will not be applied. */
export async function deleteImages(db: Db, paths: readonly string[]): Promise<void> {
  for (const p of new Set(paths)) await db.query('DELETE FROM images WHERE path = $1', [p]);
}
