/**
 * GET /api/export-file/<job id>?exp=&sid=&sv=&sig=: the file of a finished server export job, streamed
 * from the database chunk by chunk, through the signed link `export/download-link` hands its owner (or
 * an administrator). Without a valid unexpired signature for that job: 403, before the database is
 * asked. The session that asked for the link has ended (signed out, past its end, the account disabled
 * or its password changed since): 401. A file that has expired (EXPORT_FILE_HOURS), was deleted by the
 * quota (EXPORT_QUOTA_FILES / EXPORT_QUOTA_BYTES) or was never finished: 410 with a message. The
 * session's user may no longer have it (the list's permission withdrawn, another provider's rows,
 * ../exportJobs/access.ts): 403 naming why.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import { sendError } from './reply';
import type { ExportLinkSigner } from '../exportJobs/links';
import { EXPORT_FILE_ROUTE } from '../exportJobs/links';
import { readExportSettings } from '../exportJobs/settings';
import { loadSessionUser } from '../auth/sessionUser';
import { assertMayHaveFile } from '../exportJobs/access';
import type { ExportJobRow } from '../exportJobs/queue';
import { HttpError } from './httpError';

/** Why a link of a session that ended is refused. */
export const SESSION_ENDED =
  'Unauthorized: the session this download link was asked for has ended (signed out, past its end, or the account was disabled or its password changed): sign in and ask for the file again';

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
    const session = Number.isSafeInteger(id) ? signer.verify(id, query, readExportSettings().linkTtlSeconds) : undefined;
    if (!session) {
      return sendError(reply, 403, 'Forbidden: this download link is not valid or has expired; ask for the file again from the export');
    }
    // the session that asked for the link, still live, and its user as they are now
    const now = clock();
    const live = await db.one<{ user_id: number }>('SELECT user_id FROM console_sessions WHERE id = $1 AND ended_at IS NULL AND expires_at > $2', [session.sessionId, now]);
    const user = live ? await loadSessionUser(db, live.user_id, session.sessionVersion) : undefined;
    if (!user) return sendError(reply, 401, SESSION_ENDED);
    const job = await db.one<Pick<ExportJobRow, 'id' | 'user_id' | 'call_path' | 'provider_scope' | 'state' | 'file_name' | 'file_bytes' | 'mime' | 'expires_at' | 'message'>>(
      'SELECT id, user_id, call_path, provider_scope, state, file_name, file_bytes, mime, expires_at, message FROM export_jobs WHERE id = $1',
      [id],
    );
    if (!job || job.state !== 'done' || !job.file_name || !job.expires_at || job.expires_at <= now) {
      return sendError(reply, 410, job?.state === 'expired' && job.message ? job.message : 'This export file has expired or no longer exists: start the export again');
    }
    try {
      await assertMayHaveFile(db, job, user);
    } catch (err) {
      if (err instanceof HttpError) return sendError(reply, err.status, err.message);
      throw err;
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
