/**
 * Demo settlement history: the settlement batches of the past, so that today's Generate Report settles
 * only what the last days left pending. Every morning's scheduled batch (07:30) settled the successful
 * send-money transactions of the day before; on some recent days an instant batch at 14:00 settled
 * that day's successes so far. Yesterday's and today's successes stay pending. One row per currency,
 * account and acquiring provider (the transaction's provider_bank_code). Rates: that provider's
 * current settlement rate with a small deterministic daily drift (there is no rate history).
 * Runs after the transactions are seeded; deterministic.
 */
import type { Db } from '../db/db';
import type { AreaSeedContext } from './demo';
import { localDay } from '../areas/transactions/stats';
import { businessDay, instantOf, startOfBusinessDay } from '../../domain/businessTime';
import { readBusinessTimeZone } from '../environment';
import { PROVIDER_RATES_SQL } from '../areas/settlement';

const DAY = 86_400_000;
const GENERATORS = ['mahesh_s', 'nimal_perera', 'admin', 'sunil_jayasinghe'];

interface Pending {
  id: number;
  initiated_time: Date;
  currency_code: string;
  account_number: string;
  provider_bank_code: string | null;
  amount: string;
  commission: string;
}

/** Decimal text with at most 2 decimals to cents. */
function cents(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt((frac + '00').slice(0, 2)));
}
function centsText(c: bigint): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/** Batches are made on business days (BUSINESS_TIME_ZONE), as the server makes them. */
const zone = () => readBusinessTimeZone();

function atLocal(day: string, time: string): Date {
  return instantOf(`${day}T${time}`, zone())!;
}

export async function seedSettlementHistory(db: Db, ctx: AreaSeedContext): Promise<void> {
  if (await db.one('SELECT 1 FROM settlement_batches LIMIT 1')) return;
  const now = ctx.now;
  const startOfToday = startOfBusinessDay(businessDay(now, zone()), zone());
  const yesterday = localDay(new Date(startOfToday.getTime() - DAY / 2), zone());
  const routes = new Map(
    (
      await db.query<{ currency_code: string; provider_bank_code: string; settlement_rate: string }>(
        `SELECT currency_code, provider_bank_code, settlement_rate::text AS settlement_rate FROM (${PROVIDER_RATES_SQL}) r`,
      )
    ).map((r) => [`${r.provider_bank_code}|${r.currency_code}`, r]),
  );
  const pending = await db.query<Pending>(
    `SELECT t.id, t.initiated_time, t.currency_code, t.account_number, t.provider_bank_code, t.amount::text AS amount,
            (coalesce(t.ipg_commission, 0) + coalesce(t.bank_charge, 0))::text AS commission
       FROM ceft_transactions t
      WHERE t.status = 'SUCCESS' AND t.initiated_time < $1
      ORDER BY t.initiated_time, t.id`,
    [new Date(startOfToday.getTime() - DAY)],
  );
  if (pending.length === 0 || routes.size === 0) return;

  // some recent days also had an instant batch at 14:00
  const instantDays = new Set<string>();
  for (let d = 2; d <= 30; d += 4) instantDays.add(localDay(new Date(startOfToday.getTime() - d * DAY + DAY / 2), zone()));

  interface BatchDraft {
    kind: 'SCHEDULED' | 'INSTANT';
    day: string;
    at: Date;
    groups: Map<string, { currency: string; account: string; provider: string; rate: string; n: number; first: Date; amount: bigint; commission: bigint; ids: number[] }>;
  }
  const batches = new Map<string, BatchDraft>();
  for (const t of pending) {
    const route = routes.get(`${t.provider_bank_code}|${t.currency_code}`);
    if (!route) continue;
    const day = localDay(t.initiated_time, zone());
    const instantAt = atLocal(day, '14:00:00');
    let kind: BatchDraft['kind'];
    let batchDay: string;
    let at: Date;
    if (instantDays.has(day) && t.initiated_time <= instantAt) {
      kind = 'INSTANT';
      batchDay = day;
      at = instantAt;
    } else {
      kind = 'SCHEDULED';
      batchDay = localDay(new Date(atLocal(day, '12:00:00').getTime() + DAY), zone());
      at = atLocal(batchDay, '07:30:00');
    }
    if (kind === 'SCHEDULED' && batchDay > yesterday) continue; // settled by today's batch, not generated yet
    const key = `${kind}|${batchDay}`;
    let b = batches.get(key);
    if (!b) {
      b = { kind, day: batchDay, at, groups: new Map() };
      batches.set(key, b);
    }
    const gk = `${t.currency_code}|${t.account_number}|${route.provider_bank_code}`;
    let g = b.groups.get(gk);
    if (!g) {
      // the day's rate: the current settlement rate with a drift of at most ±0.6 %
      const dayIndex = Math.floor(atLocal(batchDay, '12:00:00').getTime() / DAY);
      const drift = 1 + 0.006 * Math.sin(dayIndex * 0.7 + t.currency_code.charCodeAt(0));
      const rate = (Math.round(Number(route.settlement_rate) * drift * 10_000) / 10_000).toFixed(4);
      g = { currency: t.currency_code, account: t.account_number, provider: route.provider_bank_code, rate, n: 0, first: t.initiated_time, amount: 0n, commission: 0n, ids: [] };
      b.groups.set(gk, g);
    }
    g.n++;
    g.amount += cents(t.amount);
    g.commission += cents(t.commission);
    g.ids.push(t.id);
  }
  if (batches.size === 0) return;

  const ordered = [...batches.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
  const batchRows = ordered.map((b, i) => ({
    kind: b.kind,
    batch_date: b.day,
    generated_by: GENERATORS[i % GENERATORS.length],
    generated_at: b.at.toISOString(),
    used_earlier_rates: false,
    transaction_count: [...b.groups.values()].reduce((s, g) => s + g.n, 0),
  }));
  const inserted = await db.query<{ id: number; kind: string; batch_date: string }>(
    `INSERT INTO settlement_batches (kind, batch_date, generated_by, generated_at, used_earlier_rates, transaction_count)
     SELECT x.kind, x.batch_date::date, x.generated_by, x.generated_at::timestamptz, x.used_earlier_rates, x.transaction_count
       FROM json_to_recordset($1::json) AS x(kind text, batch_date text, generated_by text, generated_at text, used_earlier_rates boolean, transaction_count integer)
     RETURNING id, kind, to_char(batch_date, 'YYYY-MM-DD') AS batch_date`,
    [batchRows],
  );
  const batchId = new Map(inserted.map((r) => [`${r.kind}|${r.batch_date}`, r.id]));

  const rowInputs = ordered.flatMap((b) =>
    [...b.groups.values()].map((g) => ({
      batch_id: batchId.get(`${b.kind}|${b.day}`)!,
      tran_date: localDay(g.first, zone()),
      currency_code: g.currency,
      account_number: g.account,
      provider_bank_code: g.provider,
      transaction_count: g.n,
      fc_amount: centsText(g.amount),
      fc_commission: centsText(g.commission),
      fc_rate: g.rate,
      at: b.at.toISOString(),
    })),
  );
  const rowIds = new Map<string, number>();
  for (let i = 0; i < rowInputs.length; i += 2000) {
    const rows = await db.query<{ id: number; batch_id: number; currency_code: string; account_number: string; provider_bank_code: string }>(
      `INSERT INTO settlement_rows (batch_id, tran_date, currency_code, account_number, provider_bank_code, transaction_count,
                                    fc_amount, fc_commission, fc_net_amount, fc_rate, lkr_amount, created_at, updated_at)
       SELECT x.batch_id, x.tran_date::date, x.currency_code, x.account_number, x.provider_bank_code, x.transaction_count,
              x.fc_amount::numeric, x.fc_commission::numeric, x.fc_amount::numeric - x.fc_commission::numeric, x.fc_rate::numeric,
              round((x.fc_amount::numeric - x.fc_commission::numeric) * x.fc_rate::numeric, 2), x.at::timestamptz, x.at::timestamptz
         FROM json_to_recordset($1::json) AS x(batch_id integer, tran_date text, currency_code text, account_number text, provider_bank_code text,
                                                transaction_count integer, fc_amount text, fc_commission text, fc_rate text, at text)
       RETURNING id, batch_id, currency_code, account_number, provider_bank_code`,
      [rowInputs.slice(i, i + 2000)],
    );
    for (const r of rows) rowIds.set(`${r.batch_id}|${r.currency_code}|${r.account_number}|${r.provider_bank_code}`, r.id);
  }

  const links = ordered.flatMap((b) => {
    const id = batchId.get(`${b.kind}|${b.day}`)!;
    return [...b.groups.values()].flatMap((g) => g.ids.map((t) => ({ transaction_id: t, batch_id: id, row_id: rowIds.get(`${id}|${g.currency}|${g.account}|${g.provider}`)! })));
  });
  for (let i = 0; i < links.length; i += 5000) {
    await db.query(
      `INSERT INTO settled_transactions (transaction_id, batch_id, row_id)
       SELECT x.transaction_id, x.batch_id, x.row_id FROM json_to_recordset($1::json) AS x(transaction_id integer, batch_id integer, row_id integer)`,
      [links.slice(i, i + 5000)],
    );
  }

  // the generations of the last 30 days in the activity log
  const since = startOfToday.getTime() - 30 * DAY;
  const logs = ordered
    .map((b, i) => ({ b, by: batchRows[i].generated_by, n: batchRows[i].transaction_count }))
    .filter(({ b }) => b.at.getTime() >= since)
    .map(({ b, by, n }) => ({
      level: 'INFO',
      type: 'SETTLEMENT_GENERATED',
      username: by,
      description: `Generated the ${b.kind === 'SCHEDULED' ? 'scheduled' : 'instant'} settlement report for ${b.day}: ${n} transaction${n === 1 ? '' : 's'} in ${b.groups.size} row${b.groups.size === 1 ? '' : 's'}`,
      created_at: b.at.toISOString(),
    }));
  if (logs.length) {
    await db.query(
      `INSERT INTO activity_logs (level, type, username, description, created_at)
       SELECT x.level, x.type, x.username, x.description, x.created_at::timestamptz
         FROM json_to_recordset($1::json) AS x(level text, type text, username text, description text, created_at text)`,
      [logs],
    );
  }
}
