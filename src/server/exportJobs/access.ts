/**
 * Who may have a finished export's file, asked when a download link is handed out
 * (`export/download-link`) and again when the link is followed (src/server/http/exportFiles.ts), so
 * what happened in between counts: the job's owner or an administrator (super-permission), who may
 * still make the list's call (its permission, as the role has it now, and the password-change gate),
 * and who may see the rows the file holds: a user limited to one provider's rows (an IPG bank user,
 * src/server/providerScope.ts) only a file read under that same provider's scope.
 */
import type { Db } from '../db/db';
import { isSuperUser } from '../../domain/permissions';
import type { SessionUser } from '../auth/sessionUser';
import { HttpError } from '../http/httpError';
import { providerScopeOf } from '../providerScope';
import { EVERY_PROVIDER, type ExportJobRow } from './queue';
import { assertMayList, exportableListOf } from './sources';

/** The rows a file holds, as a refusal names them. */
function scopeText(scope: string | null): string {
  if (scope === EVERY_PROVIDER) return "every provider's rows";
  if (scope === null) return 'rows whose provider scope was not recorded';
  return `provider ${scope}'s rows`;
}

/** A 403 naming the reason unless `user` may have job `job`'s file now (owner or administrator; the list's permission; the provider scope). */
export async function assertMayHaveFile(db: Db, job: Pick<ExportJobRow, 'id' | 'user_id' | 'call_path' | 'provider_scope'>, user: SessionUser): Promise<void> {
  if (job.user_id !== user.id && !isSuperUser(user.permissions)) throw new HttpError(403, `Forbidden: export job ${job.id} is not yours`);
  assertMayList(exportableListOf(job.call_path), user);
  const scope = await providerScopeOf(db, user);
  if (scope !== undefined && job.provider_scope !== scope) {
    throw new HttpError(403, `Forbidden: this file holds ${scopeText(job.provider_scope)}, and you may see provider ${scope}'s rows only`);
  }
}
