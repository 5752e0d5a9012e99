/**
 * The activity log's hash chain (migration 95): every entry carries `chain_seq` (its position),
 * `prev_hash` (the hash of the entry before it) and `hash` = SHA-256 over prev_hash and its own content
 * (SQL function activity_log_entry_hash), computed by a trigger in the inserting transaction; the
 * single-row chain head (activity_log_chain) holds the last position and hash.
 *
 * `verifyActivityLog` walks the chain in order and reports the first entry that does not match: an
 * entry whose content no longer gives its hash (edited), a link whose prev_hash is not the hash before
 * it (an entry was replaced or re-hashed), a position missing (deleted), or a head that does not
 * match the last entry (the newest entries deleted). The head is read first and the walk stops at its
 * position, so entries written meanwhile do not disturb it.
 *
 * Someone who can write the database as its owner can also recompute every hash after an edit: keep
 * the `headHash` a verification prints somewhere else (a ticket, an email); a later verification whose
 * chain no longer passes through that hash at that position shows the rewrite.
 */
import type { Db } from './db/db';

export type ChainProblem = 'EDITED' | 'RELINKED' | 'MISSING' | 'HEAD_MISMATCH';

export interface ChainBreak {
  problem: ChainProblem;
  /** The chain position where it does not match. */
  chainSeq: number;
  /** The entry's id (null when the entry is missing). */
  id: number | null;
  message: string;
}

export interface ChainReport {
  ok: boolean;
  /** Entries checked (up to the head read at the start). */
  checked: number;
  headSeq: number;
  headHash: string;
  firstBreak: ChainBreak | null;
}

interface ChainRow {
  chain_seq: number;
  id: number;
  prev_hash: string;
  hash: string;
  expected: string;
}

const BATCH = 5000;

export async function verifyActivityLog(db: Db, options: { batch?: number } = {}): Promise<ChainReport> {
  const batch = options.batch ?? BATCH;
  const head = await db.one<{ last_seq: number; last_hash: string }>('SELECT last_seq::int AS last_seq, last_hash FROM activity_log_chain WHERE id = 1');
  if (!head) throw new Error('The activity log has no chain head (migration 95 has not run)');
  let expectedSeq = 1;
  let prevHash = '';
  let checked = 0;
  const report = (firstBreak: ChainBreak | null): ChainReport => ({ ok: firstBreak === null, checked, headSeq: head.last_seq, headHash: head.last_hash, firstBreak });
  for (;;) {
    const rows = await db.query<ChainRow>(
      `SELECT chain_seq::int AS chain_seq, id, prev_hash, hash,
              activity_log_entry_hash(prev_hash, chain_seq, id, level, type, username, description, before, after, created_at) AS expected
         FROM activity_logs WHERE chain_seq >= $1 AND chain_seq <= $2 ORDER BY chain_seq LIMIT $3`,
      [expectedSeq, head.last_seq, batch],
    );
    for (const r of rows) {
      if (r.chain_seq !== expectedSeq) {
        return report({
          problem: 'MISSING',
          chainSeq: expectedSeq,
          id: null,
          message: `Entry ${expectedSeq} of the chain is missing (deleted); the next one present is entry ${r.chain_seq} (id ${r.id})`,
        });
      }
      if (r.prev_hash !== prevHash) {
        return report({
          problem: 'RELINKED',
          chainSeq: r.chain_seq,
          id: r.id,
          message: `Entry ${r.chain_seq} (id ${r.id}) does not link to the entry before it: an entry was replaced or its hash rewritten`,
        });
      }
      if (r.expected !== r.hash) {
        return report({ problem: 'EDITED', chainSeq: r.chain_seq, id: r.id, message: `Entry ${r.chain_seq} (id ${r.id}) does not match its hash: it was edited after it was written` });
      }
      prevHash = r.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (rows.length < batch) break;
  }
  if (expectedSeq - 1 !== head.last_seq) {
    return report({ problem: 'MISSING', chainSeq: expectedSeq, id: null, message: `Entries ${expectedSeq} to ${head.last_seq} of the chain are missing (deleted)` });
  }
  if (prevHash !== head.last_hash) {
    return report({ problem: 'HEAD_MISMATCH', chainSeq: head.last_seq, id: null, message: `The chain head does not match entry ${head.last_seq}: the log or its head was rewritten` });
  }
  return report(null);
}
