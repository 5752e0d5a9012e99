/**
 * The tamper-evident activity log (migration 95, src/server/activityLogChain.ts): every entry hashes
 * its content and the previous entry's hash; report/verify-activity-log (permission activity-log-verify: the administrator among the demo roles) and
 * `npm run verify-log` walk the chain and name the first entry that does not match. Here rows are
 * edited and deleted directly in SQL, the way someone with database access would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

async function verify(token = admin) {
  const reply = await server.call('report/verify-activity-log', {}, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data as { ok: boolean; checked: number; headSeq: number; headHash: string; firstBreak: null | { problem: string; chainSeq: number; id: number | null; message: string } };
}

/** Runs SQL with the log's insert-only trigger (and, when asked, its chain trigger) lifted, as a database owner could. */
async function tamper(sql: string, params: unknown[] = [], alsoChainTrigger = false) {
  await server.db.exec('ALTER TABLE activity_logs DISABLE TRIGGER activity_logs_insert_only');
  if (alsoChainTrigger) await server.db.exec('ALTER TABLE activity_logs DISABLE TRIGGER activity_logs_chain');
  try {
    await server.db.query(sql, params);
  } finally {
    await server.db.exec('ALTER TABLE activity_logs ENABLE TRIGGER activity_logs_insert_only');
    if (alsoChainTrigger) await server.db.exec('ALTER TABLE activity_logs ENABLE TRIGGER activity_logs_chain');
  }
}

describe('the activity log hash chain', () => {
  it('is intact after the seed and the server writing entries, concurrent ones included', async () => {
    await Promise.all(['maker', 'checker', 'auditor', 'admin', 'maker', 'checker'].map((u) => server.login(u)));
    await Promise.all(Array.from({ length: 5 }, () => server.call('auth/login', { username: 'nobody', password: 'wrong-Pass1' })));
    const report = await verify();
    expect(report.ok).toBe(true);
    expect(report.firstBreak).toBeNull();
    const count = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM activity_logs');
    // every entry but this verification's own (written after the walk) was checked
    expect(report.checked).toBe(count!.n - 1);
    expect(report.headHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('each entry names the previous entry hash, whatever a client sends for the chain columns', async () => {
    await server.db.query(`INSERT INTO activity_logs (level, type, username, description, created_at, chain_seq, prev_hash, hash) VALUES ('INFO', 'X', 'x', 'forged', now(), 1, 'a', 'b')`);
    const last = await server.db.query<{ chain_seq: number; prev_hash: string; hash: string; description: string }>(
      'SELECT chain_seq::int AS chain_seq, prev_hash, hash, description FROM activity_logs ORDER BY chain_seq DESC LIMIT 2',
    );
    expect(last[0]!.description).toBe('forged');
    expect(last[0]!.chain_seq).toBe(last[1]!.chain_seq + 1);
    expect(last[0]!.prev_hash).toBe(last[1]!.hash);
    expect(last[0]!.hash).not.toBe('b');
    expect((await verify()).ok).toBe(true);
  });

  it('reports an entry edited in SQL, and is whole again once it is put back', async () => {
    const target = await server.db.one<{ id: number; chain_seq: number; description: string }>(
      "SELECT id, chain_seq::int AS chain_seq, description FROM activity_logs WHERE type = 'LOGIN' ORDER BY chain_seq LIMIT 1 OFFSET 2",
    );
    await tamper('UPDATE activity_logs SET description = $2 WHERE id = $1', [target!.id, 'nothing to see here']);
    const broken = await verify();
    expect(broken.ok).toBe(false);
    expect(broken.firstBreak).toMatchObject({ problem: 'EDITED', chainSeq: target!.chain_seq, id: target!.id });
    expect(broken.firstBreak!.message).toBe(`Entry ${target!.chain_seq} (id ${target!.id}) does not match its hash: it was edited after it was written`);

    // the verification says so in the log too
    const logged = await server.db.one<{ level: string; description: string }>("SELECT level, description FROM activity_logs WHERE type = 'ACTIVITY_LOG_VERIFIED' ORDER BY chain_seq DESC LIMIT 1");
    expect(logged).toMatchObject({ level: 'WARN' });
    expect(logged!.description).toContain(`Entry ${target!.chain_seq} (id ${target!.id}) does not match its hash`);

    await tamper('UPDATE activity_logs SET description = $2 WHERE id = $1', [target!.id, target!.description]);
    expect((await verify()).ok).toBe(true);
  });

  it('reports an edit whose hash was recomputed as a broken link', async () => {
    const target = await server.db.one<{ id: number; chain_seq: number; username: string; hash: string }>(
      'SELECT id, chain_seq::int AS chain_seq, username, hash FROM activity_logs ORDER BY chain_seq LIMIT 1 OFFSET 5',
    );
    await tamper(
      `UPDATE activity_logs SET username = 'someone-else',
              hash = activity_log_entry_hash(prev_hash, chain_seq, id, level, type, 'someone-else', description, before, after, created_at)
        WHERE id = $1`,
      [target!.id],
    );
    const broken = await verify();
    expect(broken.firstBreak).toMatchObject({ problem: 'RELINKED', chainSeq: target!.chain_seq + 1 });
    await tamper('UPDATE activity_logs SET username = $2, hash = $3 WHERE id = $1', [target!.id, target!.username, target!.hash]);
    expect((await verify()).ok).toBe(true);
  });

  it('reports an entry deleted in SQL, and the newest entries deleted', async () => {
    const target = await server.db.one<Record<string, unknown> & { id: number; chain_seq: number }>('SELECT * FROM activity_logs ORDER BY chain_seq LIMIT 1 OFFSET 3');
    await tamper('DELETE FROM activity_logs WHERE id = $1', [target!.id]);
    const broken = await verify();
    expect(broken.ok).toBe(false);
    expect(broken.firstBreak).toMatchObject({ problem: 'MISSING', chainSeq: target!.chain_seq, id: null });
    expect(broken.firstBreak!.message).toMatch(new RegExp(`^Entry ${target!.chain_seq} of the chain is missing \\(deleted\\)`));
    // put back exactly as it was: whole again
    await tamper(
      `INSERT INTO activity_logs (id, level, type, username, description, before, after, created_at, chain_seq, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [target!.id, target!.level, target!.type, target!.username, target!.description, target!.before, target!.after, target!.created_at, target!.chain_seq, target!.prev_hash, target!.hash],
      true,
    );
    expect((await verify()).ok).toBe(true);

    // the last entries gone: the chain head still names them
    const head = await server.db.one<{ last_seq: number }>('SELECT last_seq::int AS last_seq FROM activity_log_chain');
    await tamper('DELETE FROM activity_logs WHERE chain_seq = $1', [head!.last_seq]);
    const tail = await verify();
    expect(tail.firstBreak).toMatchObject({ problem: 'MISSING', chainSeq: head!.last_seq });
    expect(tail.firstBreak!.message).toBe(`Entries ${head!.last_seq} to ${head!.last_seq} of the chain are missing (deleted)`);
  });

  it('is for holders of activity-log-verify only (none of the demo roles but the administrator)', async () => {
    for (const user of ['maker', 'checker', 'auditor']) {
      const reply = await server.call('report/verify-activity-log', {}, await server.login(user));
      expect(reply.statusCode).toBe(403);
    }
    expect((await server.call('report/verify-activity-log', {})).statusCode).toBe(401);
    expect((await server.call('report/verify-activity-log', { extra: 1 }, admin)).statusCode).toBe(400);
  });
});
