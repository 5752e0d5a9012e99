/**
 * Scheduled settlement (docs/settlement.md): every business day, once the business clock
 * (BUSINESS_TIME_ZONE) reaches SETTLEMENT_SCHEDULE (default 07:30), the server generates that day's
 * scheduled batch, as Generate Report does with its documented empty body (the same rules, the
 * earlier settlement rates when today's are not approved, the same messages), logged as the user
 * `system`. The manual button stays: whichever comes first makes the day's batch, the other is told
 * it exists already.
 *
 * Exactly once across any number of server processes: each process looks every tick (30 s), and the
 * one that acts takes a transaction-scoped advisory lock, finds no run recorded for the day in
 * settlement_schedule_runs (migration 96, keyed by the day), generates (generateBatch takes the
 * settlement lock and keeps the one-batch-per-kind-and-day rule) and records the run, outcome and
 * message, in the same transaction. A refusal (no pending transactions, already generated) is recorded
 * and logged too, and not retried that day; an unexpected failure rolls back and is tried again on
 * the next tick. A server that starts after the scheduled time generates at once (it catches up).
 */
import type { FastifyBaseLogger } from 'fastify';
import { wallClockOf, businessDay } from '../domain/businessTime';
import type { SessionUser } from './auth/sessionUser';
import type { Db } from './db/db';
import { makeCtx, type AuthServices } from './http/handle';
import { HttpError } from './http/httpError';
import { generateBatch } from './areas/settlement';

export const SCHEDULER_TICK_MS = 30_000;

/** The user the scheduled generation acts and is logged as. */
export const SYSTEM_USER: SessionUser = { id: 0, username: 'system', permissions: ['settlement-report-generate'], sessionVersion: 0, mustChangePassword: false };

export interface ScheduledRun {
  day: string;
  outcome: 'GENERATED' | 'REFUSED';
  message: string;
  batchId: number | null;
}

export interface SchedulerOptions {
  db: Db;
  clock: () => Date;
  businessTimeZone: string;
  schedule: { hour: number; minute: number };
  auth: AuthServices;
}

/** Generates the day's scheduled batch if it is due and no process has run it yet; the run, or undefined when nothing was due. */
export async function runScheduledSettlement(options: SchedulerOptions): Promise<ScheduledRun | undefined> {
  const { db, clock, businessTimeZone: zone, schedule } = options;
  const now = clock();
  const wall = wallClockOf(now, zone);
  if (wall.hour * 60 + wall.minute < schedule.hour * 60 + schedule.minute) return undefined;
  const day = businessDay(now, zone);
  if (await db.one('SELECT 1 FROM settlement_schedule_runs WHERE batch_date = $1::date', [day])) return undefined;
  return db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('settlement-schedule'))`);
    if (await tx.one('SELECT 1 FROM settlement_schedule_runs WHERE batch_date = $1::date', [day])) return undefined;
    const ctx = makeCtx(tx, SYSTEM_USER, clock, options.auth, zone);
    let run: ScheduledRun;
    try {
      const batch = await generateBatch(ctx, 'SCHEDULED', true);
      run = { day, outcome: 'GENERATED', message: 'Settlement report generated successfully', batchId: batch.batchId };
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      run = { day, outcome: 'REFUSED', message: err.message, batchId: null };
      await ctx.log({ level: 'WARN', type: 'SETTLEMENT_SCHEDULED_REFUSED', description: `The scheduled settlement report for ${day} was not generated: ${err.message}` });
    }
    await tx.query('INSERT INTO settlement_schedule_runs (batch_date, outcome, message, batch_id, ran_at) VALUES ($1::date, $2, $3, $4, $5)', [day, run.outcome, run.message, run.batchId, clock()]);
    return run;
  });
}

/** Looks every `tickMs` (and once at once); stops with the returned function. Never two looks at once in one process. */
export function startSettlementScheduler(options: SchedulerOptions & { tickMs?: number; log?: FastifyBaseLogger }): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = look().finally(() => {
      running = undefined;
    });
  };
  const look = async () => {
    try {
      const run = await runScheduledSettlement(options);
      if (run) options.log?.info({ scheduledSettlement: run }, `scheduled settlement ${run.day}: ${run.message}`);
    } catch (err) {
      options.log?.error({ err }, 'scheduled settlement failed; trying again at the next tick');
    }
  };
  const timer = setInterval(tick, options.tickMs ?? SCHEDULER_TICK_MS);
  timer.unref();
  const first = setTimeout(tick, 0);
  first.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(first);
    await running;
  };
}
