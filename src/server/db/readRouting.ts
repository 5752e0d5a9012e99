/**
 * Where reads go when a streaming replica is configured (DATABASE_REPLICA_URL): dashboards, reports,
 * transaction lists, the top-bar lookup and exports read through `readDbFor(user)` (handlers: ctx.readDb);
 * everything else, and every write, uses the primary.
 *
 * - Read-your-writes: after a call of a user wrote, the primary's WAL insert position is stored for that
 *   user (table user_write_positions, so every server process sees it). The user's reads go to the
 *   replica only once the replica has replayed past that position; until then they go to the primary.
 * - Health: every `checkMs` the primary's WAL position and the replica's replay position are read. The
 *   replica's lag is how long ago the primary first showed a position the replica has not replayed yet.
 *   Replica unreachable, not answering within `timeoutMs`, or lagging past `maxLagMs`: every read goes to
 *   the primary until a later check finds it well again. A read that fails on the replica for a
 *   connection reason (the replica or its PgBouncer went away) marks it down and runs again on the primary.
 * - Without a replica, readDbFor returns the primary itself.
 *
 * No session state is used (each statement stands alone), so it works through PgBouncer's transaction mode.
 */
import { openReadSnapshot, pgErrorCode, type Db, type ReadSnapshot, type Row } from './db';

export type ReplicaState = 'off' | 'starting' | 'ok' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** Whether DATABASE_REPLICA_URL is set. */
  configured: boolean;
  /** off: none configured; starting: not checked yet; ok; lagging: past maxLagMs; down: unreachable. */
  state: ReplicaState;
  /** Where reads that may use the replica go now. */
  readsFrom: 'replica' | 'primary';
  /** How far the replica was behind at the last check, in ms (null: unknown). */
  lagMs: number | null;
  maxLagMs: number;
  /** Whether the primary answered the last check (always true before the first check). */
  primaryUp: boolean;
  checkedAt: string | null;
  /** The last check's failure, as the driver said it. */
  error?: string;
}

export interface ReadRoutingOptions {
  /** Reads fall back to the primary when the replica is further behind than this (REPLICA_MAX_LAG_MS, default 5000). */
  maxLagMs: number;
  /** How often the replica is checked (REPLICA_CHECK_MS, default 1000). */
  checkMs: number;
  /** A check not answered within this long counts as the replica being down (default 2000). */
  timeoutMs: number;
  /** Failures of the checks and fallbacks (default: console.warn). */
  warn: (message: string) => void;
}

export const DEFAULT_READ_ROUTING: Readonly<Omit<ReadRoutingOptions, 'warn'>> = { maxLagMs: 5000, checkMs: 1000, timeoutMs: 2000 };

export interface ReadRouting {
  readonly primary: Db;
  readonly replicaConfigured: boolean;
  /** The Db for reads that need nobody's own writes (server export jobs, background work): the replica while it is well. */
  readonly readDb: Db;
  /** The Db for this user's reads: the replica while it is well and has replayed the user's last write; else the primary. */
  readDbFor(username: string | undefined): Db;
  /** Stores the primary's current WAL position as this user's last write (a no-op without a replica). */
  recordWrite(username: string): Promise<void>;
  status(): ReplicaStatus;
  /** Checks the replica now (the timer does this every checkMs once started). */
  check(): Promise<ReplicaStatus>;
  start(): void;
  /** Stops the timer and waits for a running check; closes nothing. */
  stop(): Promise<void>;
}

/** A pg_lsn's text ('16/B374D848') as a number that orders like it. */
export function lsnValue(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]+)\/([0-9A-Fa-f]+)$/.exec(lsn.trim());
  if (!m) throw new Error(`Not a WAL position: ${lsn}`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/**
 * An error that says the replica (or the PgBouncer in front of it) could not be reached or went away,
 * rather than a problem of the statement: no SQLSTATE (socket errors, timeouts, "Connection
 * terminated"), or SQLSTATE class 08 (connection), 53 (resources), 57 (operator intervention, shutdown), 58.
 */
export function isConnectionFailure(err: unknown): boolean {
  const code = pgErrorCode(err);
  if (code === undefined || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return ['08', '53', '57', '58'].includes(code.slice(0, 2));
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createReadRouting(primary: Db, replica: Db | undefined, options: Partial<ReadRoutingOptions> = {}): ReadRouting {
  const settings: ReadRoutingOptions = { ...DEFAULT_READ_ROUTING, warn: (m) => console.warn(m), ...options };
  let state: ReplicaState = replica ? 'starting' : 'off';
  let lagMs: number | null = null;
  let primaryUp = true;
  let checkedAt: Date | null = null;
  let lastError: string | undefined;
  /** The replica's replay position at the last good check. */
  let replayed: bigint | null = null;
  /** The primary's WAL position at each recent check (oldest first), to tell the replica's lag in time. */
  const samples: { at: number; lsn: bigint }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<ReplicaStatus> | undefined;

  const status = (): ReplicaStatus => ({
    configured: replica !== undefined,
    state,
    readsFrom: replica && state === 'ok' ? 'replica' : 'primary',
    lagMs,
    maxLagMs: settings.maxLagMs,
    primaryUp,
    checkedAt: checkedAt?.toISOString() ?? null,
    ...(lastError ? { error: lastError } : {}),
  });

  const markDown = (err: unknown) => {
    if (state !== 'down') settings.warn(`read replica down, reads go to the primary: ${describe(err)}`);
    state = 'down';
    lastError = describe(err);
    replayed = null;
  };

  const checkOnce = async (): Promise<ReplicaStatus> => {
    if (!replica) return status();
    const now = Date.now();
    checkedAt = new Date(now);
    try {
      const p = await withTimeout(primary.one<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn'), settings.timeoutMs, 'primary');
      primaryUp = true;
      samples.push({ at: now, lsn: lsnValue(p!.lsn) });
    } catch (err) {
      primaryUp = false;
      lastError = `primary: ${describe(err)}`;
    }
    // keep the samples of the last maxLag (and one older), enough to tell any lag up to the limit
    while (samples.length > 2 && samples[1].at < now - settings.maxLagMs - settings.checkMs) samples.shift();
    try {
      // a "replica" that is not in recovery (the primary itself, as tests configure it) has replayed everything it has
      const r = await withTimeout(
        replica.one<{ lsn: string | null }>('SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS lsn'),
        settings.timeoutMs,
        'replica',
      );
      if (!r?.lsn) throw new Error('the replica has replayed nothing yet');
      const position = lsnValue(r.lsn);
      replayed = position;
      const behind = samples.find((s) => s.lsn > position);
      lagMs = behind ? Math.max(0, Date.now() - behind.at) : 0;
      const wasWell = state === 'ok';
      state = lagMs > settings.maxLagMs ? 'lagging' : 'ok';
      if (state === 'lagging' && wasWell) settings.warn(`read replica ${lagMs} ms behind (limit ${settings.maxLagMs} ms), reads go to the primary`);
      if (state === 'ok' && !wasWell) lastError = undefined;
    } catch (err) {
      lagMs = null;
      markDown(err);
    }
    return status();
  };

  const check = () => {
    running ??= checkOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  /** The replica if a read of this user may use it now, else the primary. */
  const choose = async (username: string | undefined): Promise<Db> => {
    if (!replica || state !== 'ok' || replayed === null) return primary;
    if (username === undefined) return replica;
    const mine = await primary.one<{ lsn: string }>('SELECT lsn::text AS lsn FROM user_write_positions WHERE username = $1', [username]);
    if (!mine) return replica;
    return lsnValue(mine.lsn) <= replayed ? replica : primary;
  };

  /** A Db that picks its target at its first statement and falls back to the primary when the replica fails to answer. */
  const routedDb = (username: string | undefined): Db => {
    let target: Promise<Db> | undefined;
    const pick = () => (target ??= choose(username));
    const run = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
      const db = await pick();
      if (db === primary) return fn(primary);
      try {
        return await fn(db);
      } catch (err) {
        if (!isConnectionFailure(err)) throw err;
        markDown(err);
        target = Promise.resolve(primary);
        return fn(primary);
      }
    };
    const db: Db = {
      kind: primary.kind,
      query: <T = Row>(sql: string, params?: readonly unknown[]) => run((d) => d.query<T>(sql, params)),
      one: <T = Row>(sql: string, params?: readonly unknown[]) => run((d) => d.one<T>(sql, params)),
      exec: (sql) => run((d) => d.exec(sql)),
      tx: async (fn) => (await pick()).tx(fn),
      readSnapshot: (): Promise<ReadSnapshot> => run((d) => openReadSnapshot(d)),
      close: async () => {
        throw new Error('close() on a routed read Db: close the primary and the replica instead');
      },
    };
    return db;
  };

  return {
    primary,
    replicaConfigured: replica !== undefined,
    readDb: replica ? routedDb(undefined) : primary,
    readDbFor: (username) => (replica ? routedDb(username) : primary),
    async recordWrite(username) {
      if (!replica) return;
      await primary.query(
        `INSERT INTO user_write_positions (username, lsn, written_at) VALUES ($1, pg_current_wal_insert_lsn(), now())
         ON CONFLICT (username) DO UPDATE SET lsn = GREATEST(user_write_positions.lsn, EXCLUDED.lsn), written_at = EXCLUDED.written_at`,
        [username],
      );
    },
    status,
    check,
    start() {
      if (!replica || timer) return;
      void check();
      timer = setInterval(() => void check(), settings.checkMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}

/**
 * A view of `db` that notes whether a statement that may write went through it (anything but a plain
 * SELECT or SHOW, or a transaction), so the API can store the caller's write position after the call.
 */
export function trackWrites(db: Db): { db: Db; wrote(): boolean; reset(): void } {
  let wrote = false;
  const note = (sql: string) => {
    if (!/^\s*(select|show)\b/i.test(sql)) wrote = true;
  };
  const tracked: Db = {
    kind: db.kind,
    query: (sql, params) => {
      note(sql);
      return db.query(sql, params);
    },
    one: (sql, params) => {
      note(sql);
      return db.one(sql, params);
    },
    exec: (sql) => {
      wrote = true;
      return db.exec(sql);
    },
    tx: (fn) => {
      wrote = true;
      return db.tx(fn);
    },
    ...(db.readSnapshot ? { readSnapshot: () => db.readSnapshot!() } : {}),
    ...(db.listen ? { listen: (channel: string, onNotify: (payload: string) => void) => db.listen!(channel, onNotify) } : {}),
    close: () => db.close(),
  };
  return { db: tracked, wrote: () => wrote, reset: () => void (wrote = false) };
}
