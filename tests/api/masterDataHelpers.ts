/** Helpers of the master-data API tests: images for uploads, pending requests, stored state. */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { encodePng, Raster } from '../../src/server/seed/png';
import type { TestServer } from './harness';
import { craftedJpeg } from '../fixtures/craftedImages';

/** A small valid PNG (base64, no prefix) of a colour. */
export function pngBase64(width = 8, height = 6, color: readonly [number, number, number] = [200, 40, 40]): string {
  return new Raster(width, height, color).png().toString('base64');
}

/** A PNG of at least `bytes` bytes: random pixels do not compress. */
export function bigPngBase64(bytes: number): string {
  const side = Math.ceil(Math.sqrt(bytes / 4)) + 8;
  const rgba = new Uint8Array(randomBytes(side * side * 4));
  const png = encodePng(side, side, rgba);
  expect(png.length).toBeGreaterThanOrEqual(bytes);
  return png.toString('base64');
}

/** A minimal JPEG (SOI, APP0, a start-of-frame saying 300 x 200, EOI): the server reads a JPEG's size from its header. */
export const JPEG_BASE64 = craftedJpeg(300, 200).toString('base64');
export const GIF_BASE64 = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');
export const TEXT_BASE64 = Buffer.from('this is not an image at all, just text').toString('base64');
/** A zlib stream, to show that compressed bytes are not an image either. */
export const ZLIB_BASE64 = deflateSync(Buffer.from('nothing to see')).toString('base64');

export interface Pending {
  changeRequestId: number;
  type: string;
  pendingAction: string;
  requestedBy: string;
  newRecord: Record<string, { header: string; type: string; value: unknown }>;
  originalRecord: Record<string, { header: string; type: string; value: unknown }> | null;
}

/** The pending request with this id in a list reply's changeRequests. */
export function pendingIn(list: { data: { changeRequests: Pending[] } }, id: number): Pending {
  const found = list.data.changeRequests.find((r) => r.changeRequestId === id);
  if (!found) throw new Error(`change request ${id} is not pending`);
  return found;
}

export async function requestStatus(server: TestServer, id: number): Promise<string> {
  return (await server.db.one<{ status: string }>('SELECT status FROM change_requests WHERE id = $1', [id]))!.status;
}

/** Row counts of tables a refused request must not touch. */
export async function counts(server: TestServer, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = (await server.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`))!.n;
  return out;
}

/** GET an image path as the console does (with a cache-busting query). */
export async function fetchImage(server: TestServer, path: string): Promise<Response> {
  // as the console's imageUrl: the cache-busting query is added to a signed URL's own query
  return server.raw(`/${path}${path.includes('?') ? '&' : '?'}t=${Date.now()}`);
}
