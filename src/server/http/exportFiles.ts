/**
 * GET /api/export-file/<job id>?exp=&sig=: the file of a finished server export job, streamed from the
 * database chunk by chunk, through the signed link `export/download-link` hands its owner (or an
 * administrator). Without a valid unexpired signature for that job: 403, before the database is asked.
 * A file that has expired (EXPORT_FILE_HOURS) or was never finished: 410 with a message.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import { sendError } from './reply';
import type { ExportLinkSigner } from '../exportJobs/links';
import { EXPORT_FILE_ROUTE } from '../exportJobs/links';
import { readExportSettings } from '../exportJobs/settings';

/** A file name for Content-Disposition: ASCII fallback plus the RFC 5987 form. */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7E]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function registerExportFiles(app: FastifyInstance, db: Db, signer: ExportLinkSigner, clock: () => Date): void {
  app.get(`${EXPORT_FILE_ROUTE}:id`, async (request, reply) => {
    const idText = (request.params as { id: string }).id;
    const id = /^\d{1,10}$/.test(idText) ? Number(idText) : NaN;
    const query = request.query as Record<string, unknown>;
    if (!Number.isSafeInteger(id) || !signer.verify(id, query.exp, query.sig, readExportSettings().linkTtlSeconds)) {
      return sendError(reply, 403, 'Forbidden: this download link is not valid or has expired; ask for the file again from the export');
    }
    const job = await db.one<{ state: string; file_name: string | null; file_bytes: number | null; mime: string | null; expires_at: Date | null }>(
      'SELECT state, file_name, file_bytes, mime, expires_at FROM export_jobs WHERE id = $1',
      [id],
    );
    if (!job || job.state !== 'done' || !job.file_name || !job.expires_at || job.expires_at <= clock()) {
      return sendError(reply, 410, 'This export file has expired or no longer exists: start the export again');
    }
    const chunks = await db.query<{ seq: number }>('SELECT seq FROM export_job_chunks WHERE job_id = $1 ORDER BY seq', [id]);
    async function* read() {
      for (const { seq } of chunks) {
        const c = await db.one<{ bytes: Uint8Array }>('SELECT bytes FROM export_job_chunks WHERE job_id = $1 AND seq = $2', [id, seq]);
        if (!c) throw new Error('export file chunk vanished');
        yield Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength);
      }
    }
    return reply
      .code(200)
      .header('content-type', job.mime ?? 'application/octet-stream')
      .header('content-length', String(job.file_bytes ?? 0))
      .header('content-disposition', disposition(job.file_name))
      .header('cache-control', 'private, no-store')
      .send(Readable.from(read()));
  });
}
