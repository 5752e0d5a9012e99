/**
 * Scheduled settlement (src/server/settlementSchedule.ts): at SETTLEMENT_SCHEDULE on the business
 * clock the server generates the day's scheduled batch by itself, exactly once across two server
 * instances on one database, logged as `system`, with Generate Report's rules and messages; the
 * manual button stays. A fake clock moves the day along; the schedulers look every 50 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay, instantOf } from '../../src/domain/businessTime';
import { reportMessages } from '../../src/domain/reports';
import { buildApp } from '../../src/server/app';
import { parseSettlementSchedule, readEnvironment, StartupRefusal } from '../../src/server/environment';
import { insertableColumns, startServer, type ApiClient, type TestServer } from './harness';

const zone = process.env.BUSINESS_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone;
const MINUTE = 60_000;
let server: TestServer;
let peer: ApiClient & { close(): Promise<void> };
let admin: string;

/** 07:29 of today's business day, as an offset from the real clock. */
const day1 = businessDay(new Date(), zone);
const at0729 = instantOf(`${day1}T07:29:00`, zone)!.getTime() - Date.now();

beforeAll(async () => {
  server = await startServer({ settlementSchedule: '07:30', schedulerTickMs: 50, clockOffsetMs: at0729 });
  peer = await server.startPeer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await peer?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function batches(day: string) {
  return server.db.query<{ id: number; generated_by: string; transaction_count: number }>(
    "SELECT id, generated_by, transaction_count FROM settlement_batches WHERE kind = 'SCHEDULED' AND batch_date = $1::date",
    [day],
  );
}
async function runs(day: string) {
  return server.db.query<{ outcome: string; message: string; batch_id: number | null }>('SELECT outcome, message, batch_id FROM settlement_schedule_runs WHERE batch_date = $1::date', [day]);
}
async function logs(type: string) {
  return server.db.query<{ level: string; username: string; description: string }>('SELECT level, username, description FROM activity_logs WHERE type = $1 ORDER BY id', [type]);
}
async function until<T>(read: () => Promise<T[]>): Promise<T[]> {
  for (let i = 0; i < 200; i++) {
    const rows = await read();
    if (rows.length > 0) return rows;
    await sleep(50);
  }
  return read();
}

describe('the scheduled settlement', () => {
  it('does nothing before the scheduled time', async () => {
    await sleep(500);
    expect(await batches(day1)).toEqual([]);
    expect(await runs(day1)).toEqual([]);
  });

  it('generates the day batch once at the scheduled time, with two server instances looking, logged as system', async () => {
    server.advanceClock(2 * MINUTE); // 07:31
    const [run] = await until(() => runs(day1));
    expect(run).toMatchObject({ outcome: 'GENERATED', message: reportMessages.settlementGenerated });
    await sleep(600); // many more looks by both instances
    const made = await batches(day1);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: run!.batch_id, generated_by: 'system' });
    expect(made[0]!.transaction_count).toBeGreaterThan(0);
    expect(await runs(day1)).toHaveLength(1);
    const generated = (await logs('SETTLEMENT_GENERATED')).filter((l) => l.description.includes(`scheduled settlement report for ${day1}`));
    expect(generated).toHaveLength(1);
    expect(generated[0]!.username).toBe('system');

    // the list shows it; the manual button says it exists, as when a person generated it
    const list = await server.call('report/get-settlement-report', { date: day1, fetchCount: 100 }, admin);
    expect(list.statusCode).toBe(200);
    expect(list.data.transactions.length).toBeGreaterThan(0);
    expect(await peer.call('report/generate-settlement-report', {}, admin)).toEqual({ statusCode: 409, data: { message: reportMessages.alreadyGenerated } });
  });

  it('leaves the manual button first: the schedule then records and logs the same refusal once', async () => {
    server.advanceClock(24 * 60 * MINUTE - 31 * MINUTE); // the next day, 07:00
    const day2 = businessDay(server.now(), zone);
    expect(day2).not.toBe(day1);
    await sleep(300);
    expect(await runs(day2)).toEqual([]);
    // a payment of the second day to settle: the seed's rows end at the real time, which may be before
    // the first day's batch (then that batch settled them all); a copy of a settled row, an hour ago,
    // not settled itself
    const columns = await insertableColumns(server.db, 'ceft_transactions');
    await server.db.query(
      `INSERT INTO ceft_transactions (${columns})
         SELECT ${columns} FROM (SELECT (jsonb_populate_record(NULL::ceft_transactions, to_jsonb(t) || jsonb_build_object('id', nextval(pg_get_serial_sequence('ceft_transactions', 'id')), 'trace', t.trace || '9', 'initiated_time', $1::timestamptz, 'settled', false))).*
           FROM ceft_transactions t WHERE t.id = (SELECT max(s.transaction_id) FROM settled_transactions s)) x`,
      [new Date(server.now().getTime() - 60 * MINUTE)],
    );
    const manual = await server.call('report/generate-settlement-report', {}, await server.login('admin'));
    expect(manual.statusCode, JSON.stringify(manual.data)).toBe(200);
    expect(manual.data.message).toBe(reportMessages.settlementGenerated);

    server.advanceClock(31 * MINUTE); // 07:31
    const [run] = await until(() => runs(day2));
    expect(run).toEqual({ outcome: 'REFUSED', message: reportMessages.alreadyGenerated, batch_id: null });
    await sleep(400);
    const made = await batches(day2);
    expect(made).toHaveLength(1);
    expect(made[0]!.generated_by).toBe('admin');
    const refused = (await logs('SETTLEMENT_SCHEDULED_REFUSED')).filter((l) => l.description.includes(day2));
    expect(refused).toEqual([{ level: 'WARN', username: 'system', description: `The scheduled settlement report for ${day2} was not generated: ${reportMessages.alreadyGenerated}` }]);
  });
});

describe('SETTLEMENT_SCHEDULE at start-up', () => {
  it('defaults to 07:30, takes HH:MM or off, and refuses anything else with a clear message', async () => {
    expect(parseSettlementSchedule(undefined)).toEqual({ hour: 7, minute: 30 });
    expect(parseSettlementSchedule(' ')).toEqual({ hour: 7, minute: 30 });
    expect(parseSettlementSchedule('18:05')).toEqual({ hour: 18, minute: 5 });
    expect(parseSettlementSchedule('00:00')).toEqual({ hour: 0, minute: 0 });
    expect(parseSettlementSchedule('OFF')).toBeNull();
    for (const bad of ['7:30', '24:00', '07:60', '0730', '07:30:00', 'soon', '7.30am']) {
      expect(() => readEnvironment({ SETTLEMENT_SCHEDULE: bad })).toThrow(StartupRefusal);
      expect(() => parseSettlementSchedule(bad)).toThrow(`SETTLEMENT_SCHEDULE: "${bad}" is not a time of day HH:MM (24-hour, 00:00 to 23:59, e.g. 07:30) or off`);
    }
    await expect(buildApp({ db: server.db, secret: new Uint8Array(32), settlementSchedule: '25:00' })).rejects.toThrow(StartupRefusal);
  });
});
