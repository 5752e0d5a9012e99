/**
 * KYC review: the list of KYC records, and the reviewer's decision on the current submission.
 *
 * A KYC record has numbered submissions; the latest is the current one, the one before it (if any) the
 * earlier one. A decision is taken once per submission, under a row lock on the record, and only while
 * the record is PENDING: the server checks the decision with the same rules the modal applies
 * (src/domain/kyc.ts), computes the resulting status, stores every field's decision and reason, and
 * writes the decision to the activity log.
 */
import { kycCreateRequest, kycList, kycUpdateStatus, type KycRow } from '../../api/kyc';
import { decisionProblems, decisionStatus, kycMessages, type KycData, type KycField } from '../../domain/kyc';
import { hasPermission } from '../../domain/permissions';
import type { Row } from '../db/db';
import { handle, type Ctx } from '../http/handle';
import { matchingRows } from './matching';
import { HttpError } from '../http/httpError';
import { unsignedImagePath, type ImageUrlSigner } from '../http/imageUrls';

/** A stored field: the map entry with its key (the JSON array keeps the order). */
export interface StoredKycField extends KycField {
  key: string;
}

/** The ordered field map of a stored submission. */
export function toKycData(fields: unknown): Record<string, KycField> {
  const out: Record<string, KycField> = {};
  for (const f of (Array.isArray(fields) ? fields : []) as StoredKycField[]) {
    out[f.key] = { title: String(f.title ?? ''), value: f.value === null || f.value === undefined ? null : String(f.value), approved: f.approved === true, reason: String(f.reason ?? '') };
  }
  return out;
}

/** The ordered field map as stored: a JSON array of {key, title, value, approved, reason}. */
export function toStoredFields(data: KycData): StoredKycField[] {
  return Object.entries(data).map(([key, f]) => ({ key, title: f.title, value: f.value, approved: f.approved, reason: f.reason }));
}

interface KycListRow {
  id: number;
  first_name: string;
  last_name: string;
  uid_type: string;
  uid: string;
  phone_no: string;
  email: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  current_fields: unknown;
  decided_by: string | null;
  decided_at: Date | null;
  earlier_fields: unknown;
}

/** A submission's fields with its image paths as signed URLs (GET /images needs them for identity documents). */
function withSignedImages(fields: Record<string, KycField>, signer: ImageUrlSigner): Record<string, KycField> {
  return Object.fromEntries(Object.entries(fields).map(([key, f]) => [key, f.value === null ? f : { ...f, value: signer.sign(f.value) }]));
}

function toKycRow(r: KycListRow, signer: ImageUrlSigner): KycRow {
  return {
    kycId: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    uid_type: r.uid_type,
    uid: r.uid,
    phone_no: r.phone_no,
    email: r.email,
    status: r.status,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    currentData: withSignedImages(toKycData(r.current_fields), signer),
    submittedData: r.earlier_fields === null ? null : withSignedImages(toKycData(r.earlier_fields), signer),
    reviewedBy: r.decided_by,
    reviewedAt: r.decided_at ? r.decided_at.toISOString() : null,
  };
}

type Mode = 'create-request' | 'update-status';

/** Applies a reviewer's decision; returns the resulting status. */
async function decide(ctx: Ctx, kycId: number, sent: KycData, mode: Mode): Promise<'APPROVED' | 'REJECTED'> {
  // the review sends back the values it was handed, image URLs signed: compare them as the paths they stand for
  const decided: KycData = Object.fromEntries(Object.entries(sent).map(([k, f]) => [k, f.value === null ? f : { ...f, value: unsignedImagePath(f.value) }]));
  if (!hasPermission(ctx.user.permissions, 'kyc-view')) throw new HttpError(403, 'Forbidden: needs kyc-view and kyc-approve');
  return ctx.tx(async (t) => {
    const record = await t.db.one<Row & { id: number; status: string; first_name: string; last_name: string; uid: string }>(
      'SELECT id, status, first_name, last_name, uid FROM kyc_records WHERE id = $1 FOR UPDATE',
      [kycId],
    );
    if (!record) throw new HttpError(404, 'KYC record not found');
    const [current, earlier] = await t.db.query<{ id: number; seq: number; fields: unknown; decision: string | null }>(
      'SELECT id, seq, fields, decision FROM kyc_submissions WHERE kyc_id = $1 ORDER BY seq DESC LIMIT 2',
      [kycId],
    );
    if (!current) throw new HttpError(404, 'KYC record has no submission');
    if (mode === 'create-request' && earlier) throw new HttpError(409, 'This KYC record has an earlier submission: decide it with kyc/update-status');
    if (mode === 'update-status' && !earlier) throw new HttpError(409, 'This KYC record has no earlier submission: decide it with kyc/create-request');
    if (record.status !== 'PENDING' || current.decision !== null) throw new HttpError(409, 'This KYC submission has already been reviewed');

    const stored = toKycData(current.fields);
    const problems = decisionProblems(stored, decided);
    if (problems.length) throw new HttpError(400, problems.map((p) => `${p.field}: ${p.message}`).join('; '));

    const status = decisionStatus(decided);
    const now = t.clock();
    const fields: StoredKycField[] = Object.entries(stored).map(([key, f]) => {
      const d = decided[key];
      return { key, title: f.title, value: f.value, approved: d.approved, reason: d.approved ? '' : d.reason.trim() };
    });
    await t.db.query('UPDATE kyc_submissions SET fields = $2, decision = $3, decided_by = $4, decided_at = $5 WHERE id = $1', [current.id, fields, status, t.user.username, now]);
    await t.db.query('UPDATE kyc_records SET status = $2, updated_at = $3 WHERE id = $1', [kycId, status, now]);

    const rejected = fields.filter((f) => !f.approved);
    await t.log({
      type: status === 'APPROVED' ? 'KYC_APPROVED' : 'KYC_REJECTED',
      description:
        `KYC ${kycId} of ${record.first_name} ${record.last_name} (UID ${record.uid}), submission ${current.seq}: ` +
        (status === 'APPROVED' ? 'approved' : `rejected (${rejected.map((f) => `${f.title}: ${f.reason}`).join('; ')})`),
      after: { kycId, submission: current.seq, status, rejected: Object.fromEntries(rejected.map((f) => [f.key, f.reason])) },
    });
    return status;
  });
}

export const kycHandlers = [
  handle(kycList, async (ctx, { data: search, kycStatus, fetchCount }) => {
    const text = search.trim();
    const where = `WHERE ($1 = '' OR strpos(lower(k.uid), lower($1)) > 0 OR strpos(lower(k.email), lower($1)) > 0 OR strpos(k.phone_no, $1) > 0)
          AND ($2 = '' OR k.status = $2)`;
    const rows = await ctx.db.query<KycListRow>(
      `SELECT k.id, k.first_name, k.last_name, k.uid_type, k.uid, k.phone_no, k.email, k.status, k.created_at, k.updated_at,
              cur.fields AS current_fields, cur.decided_by, cur.decided_at, prev.fields AS earlier_fields
         FROM kyc_records k
         JOIN LATERAL (SELECT s.seq, s.fields, s.decided_by, s.decided_at FROM kyc_submissions s WHERE s.kyc_id = k.id ORDER BY s.seq DESC LIMIT 1) cur ON true
         LEFT JOIN kyc_submissions prev ON prev.kyc_id = k.id AND prev.seq = cur.seq - 1
        ${where}
        ORDER BY k.id DESC
        LIMIT $3`,
      [text, kycStatus, fetchCount],
    );
    // a record is listed once it has a submission (the JOIN LATERAL above): counted the same way
    const matching = await matchingRows(ctx.db, rows.length, fetchCount, `FROM kyc_records k ${where} AND EXISTS (SELECT 1 FROM kyc_submissions s WHERE s.kyc_id = k.id)`, [text, kycStatus]);
    return { data: { kycList: rows.map((r) => toKycRow(r, ctx.auth.imageUrls)) }, top: { matching } };
  }),

  handle(kycCreateRequest, async (ctx, { userId, kycData }) => {
    const status = await decide(ctx, userId, kycData, 'create-request');
    return { data: { message: kycMessages.created, status } };
  }),

  handle(kycUpdateStatus, async (ctx, { kycId, kycData }) => {
    const status = await decide(ctx, kycId, kycData, 'update-status');
    return { data: { message: kycMessages.updated, status } };
  }),
];
