/**
 * Demo transactions: a deterministic generator (fixed seed, times relative to `now`) of the five
 * kinds with realistic distributions — corridors and their currencies, amounts, card and payout
 * outcomes, try counts, refunds, voids and holds, billers, hospitals and doctors, Thyaga receivers,
 * insurance plans with dependants — spread over the last two years with growth, and with a busy
 * today so that the default filter (today) shows rows. Customers are the app users when there are
 * any, else a generated pool (app_user_id null).
 *
 * Rows go in batches through json_populate_recordset (one parameter per batch, the same SQL on
 * PGlite and PostgreSQL); the roll-ups follow by the triggers of migration 60 (one aggregate per batch).
 */
import { Rng } from './random';
import { overallStatusOf, type TransactionKind } from '../../domain/transactionStatus';
import type { Db } from '../db/db';
import { banks } from './referenceData';
import { localDay, syncRollupTimeZone } from '../areas/transactions/stats';
import { businessDay, startOfBusinessDay } from '../../domain/businessTime';
import { readBusinessTimeZone } from '../environment';
import { PROVIDER_RATES_SQL } from '../areas/settlement';
import { transactionKindList } from '../areas/transactions/kinds';
import { ensureMonthPartitions, transactionTables } from '../db/partitions';

/** The size of the demo set `npm start` seeds (override with SEED_TRANSACTIONS). */
export const DEFAULT_DEMO_TRANSACTIONS = 20_000;
/** The generator's fixed seed. */
export const TRANSACTION_SEED = 20_240_611;

const DAY = 24 * 60 * 60 * 1000;
const YEARS = 2;

// ---- randomness ------------------------------------------------------------------------------

/** A picker by weights (cumulative table, binary search). */
class Weighted<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;
  constructor(private readonly items: readonly (readonly [T, number])[]) {
    let sum = 0;
    for (const [, w] of items) this.cumulative.push((sum += w));
    this.total = sum;
  }
  pick(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo][0];
  }
}

// ---- the world -------------------------------------------------------------------------------

/** Sending corridors and their share of customers. */
const corridors = new Weighted<string>([
  ['AE', 24],
  ['SA', 18],
  ['QA', 10],
  ['KW', 9],
  ['OM', 5],
  ['BH', 3],
  ['IT', 6],
  ['KR', 6],
  ['JP', 5],
  ['GB', 4],
  ['AU', 3],
  ['CA', 3],
  ['US', 1.5],
  ['IL', 1.5],
  ['CY', 1],
  ['MV', 0.5],
]);

const currencyOf: Record<string, string> = {
  AE: 'AED',
  SA: 'SAR',
  QA: 'QAR',
  KW: 'KWD',
  OM: 'OMR',
  BH: 'BHD',
  IT: 'EUR',
  CY: 'EUR',
  JP: 'JPY',
  KR: 'KRW',
  GB: 'GBP',
  AU: 'AUD',
  CA: 'CAD',
  US: 'USD',
  IL: 'ILS',
  MV: 'MVR',
  LK: 'LKR',
};

/** US dollars per unit of each currency (mid-market, roughly). */
const usdPerUnit: Record<string, number> = {
  AED: 0.2723,
  SAR: 0.2667,
  QAR: 0.2747,
  KWD: 3.25,
  OMR: 2.6,
  BHD: 2.65,
  EUR: 1.08,
  JPY: 0.0067,
  KRW: 0.00073,
  GBP: 1.27,
  AUD: 0.66,
  CAD: 0.73,
  USD: 1,
  ILS: 0.27,
  MVR: 0.065,
  LKR: 1 / 300,
};

/** Rupees per US dollar at a time: drifting between about 292 and 318 over the two years. */
function lkrPerUsd(t: number, now: number): number {
  const days = (now - t) / DAY;
  return 300 + 12 * Math.sin(days / 110) + days * 0.012;
}

const maleNames = [
  'Nimal',
  'Kamal',
  'Sunil',
  'Chaminda',
  'Ruwan',
  'Kasun',
  'Tharindu',
  'Lahiru',
  'Dinesh',
  'Mahesh',
  'Pradeep',
  'Asanka',
  'Nuwan',
  'Saman',
  'Roshan',
  'Janaka',
  'Mohamed',
  'Fazil',
  'Rizwan',
  'Suresh',
];
const femaleNames = ['Kumari', 'Dilani', 'Chamari', 'Nadeesha', 'Ishara', 'Sanduni', 'Priyanka', 'Fathima', 'Anjali', 'Shanika', 'Malini', 'Thilini', 'Nirosha', 'Hasini', 'Kavindi', 'Sewwandi'];
const firstNames = [...maleNames, ...femaleNames];
const lastNames = [
  'Perera',
  'Fernando',
  'Silva',
  'Jayasinghe',
  'Bandara',
  'Wickramasinghe',
  'Herath',
  'Dissanayake',
  'Karunaratne',
  'Senanayake',
  'Ekanayake',
  'Rajapaksa',
  'Gunawardena',
  'Weerasinghe',
  'Thevarajah',
  'Rizna',
  'Kumara',
  'Rathnayake',
  'Samarasinghe',
  'Wijesinghe',
  'Liyanage',
  'Mendis',
  'De Silva',
  'Amarasinghe',
  'Jayawardena',
  'Nawaz',
  'Sivakumar',
  'Pathirana',
];

const cardDeclines = ['Do not honour', 'Insufficient funds', 'Card expired', '3-D Secure authentication failed', 'Transaction not permitted to cardholder'];
const transferFailures = ['Invalid beneficiary account number', 'Beneficiary account closed', 'Beneficiary bank unavailable', 'Response received too late from LankaPay'];
const staff = ['nimal_perera', 'sunil_jayasinghe', 'arjun_t', 'mahesh_s', 'maker'];
const holdReasons = ['Compliance review', 'Beneficiary name mismatch', 'Customer requested hold', 'Sanctions screening'];

/** Banks weighted by their share of remittance payouts. */
const payoutBanks = new Weighted<string>(banks.map((b, i) => [b.code, i < 10 ? 12 - i : 2] as const));

/** Billers: code, share, and the shape of their account numbers. */
const billers = new Weighted<{ code: string; account: (r: Rng) => string; medianUsd: number }>([
  [{ code: 'CEB', account: (r) => r.digits(10), medianUsd: 30 }, 22],
  [{ code: 'NWSDB', account: (r) => r.digits(11), medianUsd: 12 }, 12],
  [{ code: 'LECO', account: (r) => r.digits(10), medianUsd: 25 }, 5],
  [{ code: 'DIALOG', account: (r) => `07${r.pick(['7', '6'])}${r.digits(7)}`, medianUsd: 8 }, 24],
  [{ code: 'SLTMOBITEL', account: (r) => `07${r.pick(['1', '0'])}${r.digits(7)}`, medianUsd: 8 }, 14],
  [{ code: 'SLTBB', account: (r) => `0${r.pick(['11', '81', '91'])}${r.digits(7)}`, medianUsd: 20 }, 8],
  [{ code: 'HUTCH', account: (r) => `078${r.digits(7)}`, medianUsd: 5 }, 5],
  [{ code: 'DIALOGTV', account: (r) => r.digits(8), medianUsd: 10 }, 6],
  [{ code: 'AIA', account: (r) => `P${r.digits(8)}`, medianUsd: 60 }, 2],
  [{ code: 'CEYLINCO', account: (r) => `CL${r.digits(8)}`, medianUsd: 55 }, 2],
]);
const billPaymentFailures = ['Invalid account number', 'Biller system unavailable', 'Account inactive at the biller'];

const hospitals = [
  { name: 'Asiri Central Hospital', integrated: false },
  { name: 'Nawaloka Hospital', integrated: true },
  { name: 'Lanka Hospitals', integrated: true },
  { name: 'Durdans Hospital', integrated: false },
  { name: 'Hemas Hospital Wattala', integrated: false },
  { name: 'Ninewells Hospital', integrated: false },
  { name: 'Kings Hospital', integrated: true },
  { name: 'Co-op Hospital Kandy', integrated: false },
  { name: 'Suwasevana Hospital Kandana', integrated: false },
] as const;
const specialties = ['Cardiologist', 'Consultant Physician', 'Paediatrician', 'Gynaecologist', 'Dermatologist', 'ENT Surgeon', 'Neurologist', 'Psychiatrist', 'Eye Surgeon', 'Orthopaedic Surgeon'];
const doctors = Array.from({ length: 60 }, (_, i) => `Dr. ${firstNames[(i * 7) % firstNames.length]} ${lastNames[(i * 11) % lastNames.length]} (${specialties[i % specialties.length]})`);
const sessionTimes = ['08:00', '09:30', '14:00', '16:30', '17:00', '17:30', '18:30', '19:00', '20:00'];
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const insurancePlans = new Weighted([
  [{ cover: 'Foreign Employment Cover', plan: 'SLI-FEC-365', price: 48, family: false }, 40],
  [{ cover: 'Individual Travel', plan: 'SLI-TRV-030', price: 36, family: false }, 20],
  [{ cover: 'Individual Travel', plan: 'SLI-TRV-090', price: 72, family: false }, 10],
  [{ cover: 'Family Travel', plan: 'SLI-FAM-030', price: 110, family: true }, 12],
  [{ cover: 'Family Health Shield', plan: 'SLI-FHS-365', price: 240, family: true }, 10],
  [{ cover: 'Annual Multi-trip', plan: 'SLI-AMT-365', price: 185, family: false }, 8],
] as const);
const relations = ['Spouse', 'Son', 'Daughter', 'Father', 'Mother'] as const;

/** The placeholder time the networks record for a stage that has not happened (shown as '-'). */
const NOT_HAPPENED = '0001-01-01T00:00:00.000Z';

// ---- customers -------------------------------------------------------------------------------

interface Customer {
  readonly appUserId: number | null;
  readonly uid: string;
  readonly country: string;
  readonly name: string;
  readonly email: string;
}

function nicOf(rng: Rng): string {
  if (rng.chance(0.45)) return `${rng.int(60, 99)}${rng.digits(7)}${rng.pick(['V', 'V', 'V', 'X'])}`;
  return `${rng.int(1960, 2004)}${rng.digits(8)}`;
}

function generatedCustomers(rng: Rng, count: number): Customer[] {
  return Array.from({ length: count }, () => {
    const first = rng.pick(firstNames);
    const last = rng.pick(lastNames);
    const passport = rng.chance(0.3);
    return {
      appUserId: null,
      uid: passport ? `N${rng.digits(7)}` : nicOf(rng),
      country: corridors.pick(rng),
      name: `${first} ${last}`,
      email: `${first}.${last.replace(/\s/g, '')}${rng.int(1, 999)}@gmail.com`.toLowerCase(),
    };
  });
}

async function loadCustomers(db: Db, rng: Rng, transactions: number): Promise<Customer[]> {
  const users = await db.query<{ id: number; uid: string; country: string; first_name: string; last_name: string; email: string }>(
    'SELECT id, uid, country, first_name, last_name, email FROM app_users WHERE disabled = 0 ORDER BY id',
  );
  if (users.length > 0) {
    return users.map((u) => ({ appUserId: u.id, uid: u.uid.toUpperCase(), country: u.country, name: `${u.first_name} ${u.last_name}`, email: u.email }));
  }
  return generatedCustomers(rng, Math.min(50_000, Math.max(300, Math.round(transactions / 25))));
}

/** Some customers send far more often than others. */
function pickCustomer(rng: Rng, customers: readonly Customer[]): Customer {
  const u = rng.next();
  return customers[Math.floor(customers.length * u * u)];
}

// ---- times -----------------------------------------------------------------------------------

/**
 * `count` initiated times, ascending: `today` of them between the business day's midnight
 * (BUSINESS_TIME_ZONE: the console's default range) and `now`, the rest over the two years before,
 * denser towards the present (the service grows).
 */
/** A day before the earliest time the generated transactions can have (initiatedTimes: YEARS back from today). */
export function seedRangeStart(now: Date): Date {
  return new Date(now.getTime() - (YEARS * 365 + 2) * DAY);
}

export function initiatedTimes(rng: Rng, count: number, today: number, now: Date, zone = readBusinessTimeZone()): Float64Array {
  const midnight = startOfBusinessDay(businessDay(now, zone), zone).getTime();
  const start = midnight - YEARS * 365 * DAY;
  const out = new Float64Array(count);
  const a = 0.35; // density at the start relative to the end
  const norm = a + (1 - a) / 2;
  for (let i = 0; i < count; i++) {
    if (i < today) {
      out[i] = midnight + rng.next() * Math.max(1000, now.getTime() - midnight);
    } else {
      // inverse CDF of the density a + (1 - a) x on [0, 1]
      const u = rng.next() * norm;
      const x = (-a + Math.sqrt(a * a + 2 * (1 - a) * u)) / (1 - a);
      out[i] = start + x * (midnight - start);
    }
  }
  return out.sort();
}

// ---- one row of each kind --------------------------------------------------------------------

const round2 = (n: number) => Math.round(n * 100) / 100;
const iso = (ms: number) => new Date(ms).toISOString();

function yymmdd(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getFullYear() % 100).padStart(2, '0')}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

interface Money {
  currency: string;
  amount: number;
  amount_usd: number;
  amount_lkr: number;
  /** LKR per unit of the currency. */
  rate: number;
}

function moneyFor(rng: Rng, country: string, medianUsd: number, sigma: number, t: number, now: number): Money {
  const currency = currencyOf[country] ?? 'USD';
  const usd = Math.min(8000, Math.max(3, rng.logNormal(medianUsd, sigma)));
  const perUnit = usdPerUnit[currency] ?? 1;
  let amount = usd / perUnit;
  amount = currency === 'JPY' || currency === 'KRW' ? Math.round(amount / 100) * 100 : round2(amount);
  const rate = Math.round(lkrPerUsd(t, now) * perUnit * 10_000) / 10_000;
  return { currency, amount, amount_usd: round2(amount * perUnit), amount_lkr: round2(amount * rate), rate };
}

/** The card payment through the IPG, and the deductions when it succeeded. */
function cardStage(rng: Rng, t: number, age: number) {
  const r = rng.next();
  const pendingShare = age < 30 * 60 * 1000 ? 0.25 : 0.006;
  if (r < pendingShare) {
    return { card_payment_time: NOT_HAPPENED, card_payment_status: 'PENDING', card_payment_description: 'Awaiting IPG response', ipg_transaction_id: null, paidAt: null };
  }
  const paidAt = t + rng.int(8, 120) * 1000;
  if (r < pendingShare + 0.035) {
    return { card_payment_time: iso(paidAt), card_payment_status: 'FAILED', card_payment_description: rng.pick(cardDeclines), ipg_transaction_id: rng.digits(12), paidAt: null };
  }
  return { card_payment_time: iso(paidAt), card_payment_status: 'SUCCESS', card_payment_description: 'Approved', ipg_transaction_id: rng.digits(12), paidAt };
}

function deductions(rng: Rng, m: Money) {
  const ipg_rate = rng.pick([2.5, 2.75, 3, 3.25]);
  const ipg_commission = round2((m.amount * ipg_rate) / 100);
  const bank_charge = round2(rng.pick([0.5, 0.75, 1]) / (usdPerUnit[m.currency] ?? 1));
  return {
    ipg_rate,
    ipg_commission,
    bank_charge,
    refund_commission: rng.pick([1, 1.5, 2]),
    beneficiary_received_amount_lkr: round2(Math.max(0, m.amount - ipg_commission - bank_charge) * m.rate),
  };
}

/** The IPG void of a card payment, done the same day (automatic when the payout failed). */
function voidStage(rng: Rng, paidAt: number, ok: boolean, now = Infinity) {
  const at = Math.min(paidAt + rng.int(2, 50) * 60 * 1000, now - 1000);
  return {
    ipg_void_payment_time: iso(at),
    ipg_void_status: ok ? 'SUCCESS' : 'FAILED',
    ipg_void_tran_id: ok ? `VD${rng.digits(10)}` : null,
    ipg_void_description: ok ? 'Card payment voided' : 'Void declined by the IPG: Issuer or switch inoperative',
    ipg_void_code: ok ? '00' : '91',
    ipg_void_message: ok ? 'Approved' : 'Issuer or switch inoperative',
  };
}

const noVoid = { ipg_void_payment_time: null, ipg_void_status: null, ipg_void_tran_id: null, ipg_void_description: null, ipg_void_code: null, ipg_void_message: null };

interface Generated {
  row: Record<string, unknown>;
  dependants?: Record<string, unknown>[];
}

interface RowContext {
  rng: Rng;
  id: number;
  t: number;
  now: number;
  customer: Customer;
}

/** A payout stage (bill payment, booking, Thyaga or insurance payment) after a successful card payment. */
function payoutOutcome(rng: Rng, age: number): 'SUCCESS' | 'FAILED' | 'PENDING' {
  const r = rng.next();
  if (age < 15 * 60 * 1000 && r < 0.3) return 'PENDING';
  if (r < 0.94) return 'SUCCESS';
  if (r < 0.975) return 'FAILED';
  return 'PENDING';
}

/** How many beneficiaries (bank accounts) a customer sends money to. */
const BENEFICIARIES_PER_CUSTOMER = 3;

/**
 * The receiving account of a remittance: one of the customer's few beneficiaries (a customer sends
 * to the same family accounts again and again), chosen by the row's random draw (`bank` and
 * `digits`, drawn as before so that the rest of the stream is unchanged) and derived from the
 * customer's id, so every remittance to that beneficiary carries the same bank and account.
 */
function beneficiaryOf(customer: Customer, _bank: string, digits: string): { bank_code: string; account_number: string } {
  const slot = Number(digits.slice(-1)) % BENEFICIARIES_PER_CUSTOMER;
  let h = 2166136261;
  for (const c of `${customer.uid}|${slot}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const r = new Rng(h);
  return { bank_code: payoutBanks.pick(r), account_number: r.digits(r.pick([10, 11, 12])) };
}

function ceftRow({ rng, id, t, now, customer }: RowContext): Generated {
  const age = now - t;
  const m = moneyFor(rng, customer.country, 320, 0.75, t, now);
  const card = cardStage(rng, t, age);
  const row: Record<string, unknown> = {
    tran_type: rng.chance(0.88) ? 'CEFT' : 'SLIPS',
    ...beneficiaryOf(customer, payoutBanks.pick(rng), rng.digits(rng.pick([10, 11, 12]))),
    exchange_rate_final: m.rate,
    ...deductions(rng, m),
    ceft_payment_time: null,
    ceft_payment_status: null,
    ceft_payment_description: null,
    ceft_transaction_id: null,
    ceft_try_count: 0,
    refund_requested: false,
    ...noVoid,
    ipg_refund_payment_time: null,
    ipg_refund_status: null,
    ipg_refund_tran_id: null,
    ipg_refund_description: null,
    ipg_refund_code: null,
    ipg_refund_message: null,
  };
  let updated = card.paidAt ?? t;
  if (card.paidAt !== null) {
    const r = rng.next();
    const fresh = age < 10 * 60 * 1000 && rng.chance(0.4);
    if (fresh || (r >= 0.91 && r < 0.935)) {
      Object.assign(row, { ceft_payment_status: 'PENDING', ceft_payment_description: 'Queued for the next CEFT cycle', ceft_try_count: rng.int(0, 3) });
    } else if (r < 0.91) {
      const at = card.paidAt + rng.int(10, 600) * 1000;
      Object.assign(row, {
        ceft_payment_time: iso(at),
        ceft_payment_status: 'SUCCESS',
        ceft_payment_description: 'Fund transfer completed',
        ceft_transaction_id: `CEFT${rng.digits(12)}`,
        ceft_try_count: rng.chance(0.94) ? 1 : rng.int(2, 4),
      });
      updated = at;
    } else if (r < 0.985) {
      const at = card.paidAt + rng.int(10, 3600) * 1000;
      // a few transfers kept failing through the automatic retries
      const tries = rng.chance(0.06) ? rng.int(100, 140) : rng.int(1, 6);
      Object.assign(row, {
        ceft_payment_time: iso(at),
        ceft_payment_status: 'FAILED',
        ceft_payment_description: rng.pick(transferFailures),
        ceft_try_count: tries,
        refund_requested: rng.chance(0.75),
      });
      updated = at;
    } else {
      Object.assign(row, {
        ceft_payment_status: 'HOLD',
        ceft_payment_description: `Held by ${rng.pick(staff)}: ${rng.pick(holdReasons)}`,
        ceft_try_count: rng.int(0, 2),
        refund_requested: rng.chance(0.4),
      });
    }
    // refunds the operations team has already dealt with: voids on the day of the card payment, refunds later
    const dealtWith = row.refund_requested && (age > DAY ? rng.chance(0.75) : age > 3600 * 1000 && rng.chance(0.35));
    if (dealtWith) {
      const sameDay = age <= DAY || rng.chance(0.3);
      if (sameDay) {
        Object.assign(row, voidStage(rng, card.paidAt, rng.chance(0.95), now));
        updated = Date.parse(row.ipg_void_payment_time as string);
      } else {
        const at = card.paidAt + rng.int(1, 20) * DAY + rng.int(0, 8 * 3600) * 1000;
        const ok = rng.chance(0.94);
        Object.assign(row, {
          ipg_refund_payment_time: iso(Math.min(at, now - 60_000)),
          ipg_refund_status: ok ? 'SUCCESS' : 'FAILED',
          ipg_refund_tran_id: ok ? `RF${rng.digits(10)}` : null,
          ipg_refund_description: ok ? `Card payment refunded (${String(row.refund_commission)}% commission retained)` : 'Refund declined by the IPG: Do not honour',
          ipg_refund_code: ok ? '00' : '05',
          ipg_refund_message: ok ? 'Approved' : 'Do not honour',
        });
        updated = Math.min(at, now - 60_000);
      }
    }
  }
  row.status = overallStatusOf({
    card: card.card_payment_status,
    payout: row.ceft_payment_status as string | null,
    void: row.ipg_void_status as string | null,
    refund: row.ipg_refund_status as string | null,
  });
  return { row: common(id, 1, t, updated, customer, m, card, row) };
}

function common(id: number, kindDigit: number, t: number, updated: number, customer: Customer, m: Money, card: ReturnType<typeof cardStage>, rest: Record<string, unknown>): Record<string, unknown> {
  const { paidAt: _paidAt, ...cardColumns } = card;
  return {
    id,
    trace: `${yymmdd(t)}${kindDigit}${String(id).padStart(8, '0')}`,
    uid: customer.uid,
    app_user_id: customer.appUserId,
    country: customer.country,
    currency_code: m.currency,
    amount: m.amount,
    amount_usd: m.amount_usd,
    amount_lkr: m.amount_lkr,
    account_number: '',
    initiated_time: iso(t),
    ...cardColumns,
    ...rest,
    action_seq: 0,
    created_at: iso(t),
    updated_at: iso(Math.max(t, updated)),
  };
}

/** Payout columns and the automatic void when the payout failed. */
function payoutStage(rng: Rng, prefix: string, paidAt: number | null, age: number, texts: { ok: string; failures: readonly string[]; pending: string }, timeKey = `${prefix}_time`) {
  const none: Record<string, unknown> = {};
  if (paidAt === null) return { cols: { [timeKey]: null, [`${prefix}_status`]: null, [`${prefix}_description`]: null }, status: null as string | null, at: null as number | null, voided: none };
  const outcome = payoutOutcome(rng, age);
  if (outcome === 'PENDING') return { cols: { [timeKey]: null, [`${prefix}_status`]: 'PENDING', [`${prefix}_description`]: texts.pending }, status: 'PENDING', at: null, voided: none };
  const at = paidAt + rng.int(5, 300) * 1000;
  const cols = { [timeKey]: iso(at), [`${prefix}_status`]: outcome, [`${prefix}_description`]: outcome === 'SUCCESS' ? texts.ok : rng.pick(texts.failures) };
  const voided: Record<string, unknown> = outcome === 'FAILED' && age > 3600 * 1000 && rng.chance(0.8) ? voidStage(rng, at, rng.chance(0.96)) : {};
  const last = typeof voided.ipg_void_payment_time === 'string' ? Date.parse(voided.ipg_void_payment_time) : at;
  return { cols, status: outcome, at: last, voided };
}

function statusOf(card: string | null, payout: string | null, voided: Record<string, unknown>): string {
  return overallStatusOf({ card, payout, void: (voided.ipg_void_status as string | undefined) ?? null });
}

function billRowOf({ rng, id, t, now, customer }: RowContext): Generated {
  const age = now - t;
  const biller = billers.pick(rng);
  const m = moneyFor(rng, customer.country, biller.medianUsd, 0.6, t, now);
  const card = cardStage(rng, t, age);
  const p = payoutStage(rng, 'bill_payment', card.paidAt, age, { ok: 'Bill payment successful', failures: billPaymentFailures, pending: 'Awaiting biller confirmation' });
  const row = {
    biller_code: biller.code,
    account_number: biller.account(rng),
    exchange_rate_lkr: m.rate,
    ...deductions(rng, m),
    ...p.cols,
    ...noVoid,
    ...p.voided,
    status: statusOf(card.card_payment_status, p.status, p.voided),
  };
  return { row: common(id, 2, t, p.at ?? t, customer, m, card, row) };
}

function eChannellingRowOf({ rng, id, t, now, customer }: RowContext): Generated {
  const age = now - t;
  const hospital = rng.pick(hospitals);
  const doctor = rng.pick(doctors);
  const doctorCharge = rng.int(8, 18) * 250;
  const hospitalCharge = rng.int(6, 15) * 100;
  const ecCharge = rng.pick([300, 350, 400, 450]);
  const itg = hospital.integrated ? doctorCharge + hospitalCharge : 0;
  const charges = hospital.integrated ? { doctor_charge_lkr: 0, hospital_charge_lkr: 0, itg_amount: itg } : { doctor_charge_lkr: doctorCharge, hospital_charge_lkr: hospitalCharge, itg_amount: 0 };
  const totalLkr = doctorCharge + hospitalCharge + ecCharge;
  const currency = currencyOf[customer.country] ?? 'USD';
  const perUnit = usdPerUnit[currency] ?? 1;
  const rate = Math.round(lkrPerUsd(t, now) * perUnit * 10_000) / 10_000;
  const amount = currency === 'JPY' || currency === 'KRW' ? Math.ceil(totalLkr / rate / 100) * 100 : round2(totalLkr / rate);
  const m: Money = { currency, amount, amount_usd: round2(amount * perUnit), amount_lkr: totalLkr, rate };
  const card = cardStage(rng, t, age);
  const p = payoutStage(rng, 'ec_booking', card.paidAt, age, {
    ok: 'Appointment booked',
    failures: ['Session full', 'Doctor not available on this date', 'Hospital system unavailable'],
    pending: 'Awaiting hospital confirmation',
  });
  const appointment = new Date(t + rng.int(1, 14) * DAY);
  const { beneficiary_received_amount_lkr: _none, ...ded } = deductions(rng, m);
  const row = {
    ec_transaction_id: p.status === 'SUCCESS' ? `EC${rng.digits(9)}` : null,
    patient_name: rng.chance(0.6) ? `${rng.pick(firstNames)} ${customer.name.split(' ').slice(-1)[0]}` : customer.name,
    patient_mobile: `07${rng.pick(['0', '1', '2', '5', '6', '7', '8'])}${rng.digits(7)}`,
    hospital_name: hospital.name,
    doctor_name: doctor,
    appointment_day: weekdays[appointment.getDay()],
    appointment_date: localDay(appointment, readBusinessTimeZone()),
    start_time: rng.pick(sessionTimes),
    ...charges,
    ec_charge_lkr: ecCharge,
    total_lkr: totalLkr,
    exchange_rate_lkr: rate,
    ...ded,
    beneficiary_received_amount_lkr: null,
    ...p.cols,
    ...noVoid,
    ...p.voided,
    status: statusOf(card.card_payment_status, p.status, p.voided),
  };
  return { row: common(id, 3, t, p.at ?? t, customer, m, card, row) };
}

function thyagaRowOf({ rng, id, t, now, customer }: RowContext): Generated {
  const age = now - t;
  const m = moneyFor(rng, customer.country, 45, 0.6, t, now);
  const card = cardStage(rng, t, age);
  const sendLater = rng.chance(0.15);
  const sendAt = sendLater ? t + rng.int(1, 10) * DAY : null;
  const scheduled = sendAt !== null && sendAt > now && card.paidAt !== null;
  const p = scheduled
    ? {
        cols: { thyaga_payment_time: NOT_HAPPENED, thyaga_payment_status: 'PENDING', thyaga_payment_description: 'Scheduled for delivery' },
        status: 'PENDING',
        at: null,
        voided: {} as Record<string, unknown>,
      }
    : payoutStage(rng, 'thyaga_payment', card.paidAt === null ? null : Math.max(card.paidAt, sendAt ?? 0), age, {
        ok: 'Gift voucher delivered',
        failures: ['Receiver mobile number unreachable', 'Thyaga system unavailable'],
        pending: 'Awaiting Thyaga confirmation',
      });
  const row = {
    account_number: `6${rng.digits(15)}`,
    mobile_number: `07${rng.pick(['0', '1', '2', '5', '6', '7', '8'])}${rng.digits(7)}`,
    receiver_name: `${rng.pick(firstNames)} ${rng.pick(lastNames)}`,
    sender_name: customer.name,
    send_later: sendLater,
    send_at: sendAt === null ? null : iso(sendAt),
    via_email: rng.chance(0.4),
    via_sms: rng.chance(0.92),
    exchange_rate_lkr: m.rate,
    ...deductions(rng, m),
    ...p.cols,
    ...noVoid,
    ...p.voided,
    status: statusOf(card.card_payment_status, p.status, p.voided),
  };
  return { row: common(id, 4, t, p.at ?? t, customer, m, card, row) };
}

function insuranceRowOf({ rng, id, t, now, customer }: RowContext, dependantId: () => number): Generated {
  const age = now - t;
  const plan = insurancePlans.pick(rng);
  const rate = Math.round(lkrPerUsd(t, now) * 10_000) / 10_000;
  const amount = round2(plan.price + rng.pick([0, 0, 1, 1.5, 2]));
  const m: Money = { currency: 'USD', amount, amount_usd: amount, amount_lkr: round2(amount * rate), rate };
  const card = cardStage(rng, t, age);
  const p = payoutStage(rng, 'insurance_payment', card.paidAt, age, {
    ok: 'Policy issued',
    failures: ['Insurer system unavailable', 'Policy holder details rejected'],
    pending: 'Awaiting insurer confirmation',
  });
  const ipgRate = rng.pick([2.5, 3]);
  const row = {
    nic: customer.uid.startsWith('N') ? nicOf(rng) : customer.uid,
    email: customer.email,
    cover_package: plan.cover,
    plan_no: plan.plan,
    insurance_package_price: plan.price,
    exchange_rate_lkr: rate,
    ipg_rate: ipgRate,
    refund_commission: null,
    ipg_commission_lkr: round2((m.amount_lkr * ipgRate) / 100),
    bank_charge_lkr: rng.pick([150, 200, 250]),
    insurer_reserved_amount_lkr: round2(plan.price * rate * 0.85),
    ...p.cols,
    insurance_transaction_id: p.status === 'SUCCESS' ? `POL${rng.digits(9)}` : null,
    ...noVoid,
    ...p.voided,
    status: statusOf(card.card_payment_status, p.status, p.voided),
  };
  const surname = customer.name.split(' ').slice(-1)[0];
  const dependants = plan.family
    ? Array.from({ length: rng.int(1, 4) }, (_, i) => {
        const relation = i === 0 ? 'Spouse' : rng.pick(relations.slice(1));
        const female = relation === 'Mother' || relation === 'Daughter' || (relation === 'Spouse' && !femaleNames.includes(customer.name.split(' ')[0]));
        const first = rng.pick(female ? femaleNames : maleNames);
        return {
          id: dependantId(),
          insurance_transaction_id: id,
          title: relation === 'Daughter' ? 'Miss' : relation === 'Son' ? 'Master' : female ? 'Mrs' : 'Mr',
          name: `${first} ${surname}`,
          nic_number: relation === 'Son' || relation === 'Daughter' ? '' : nicOf(rng),
          relation_type: relation,
          mobile_number: relation === 'Son' || relation === 'Daughter' ? '' : `07${rng.pick(['1', '6', '7'])}${rng.digits(7)}`,
          email: rng.chance(0.3) ? `${first}.${surname}@gmail.com`.toLowerCase() : '',
        };
      })
    : [];
  return { row: common(id, 5, t, p.at ?? t, customer, m, card, row), dependants };
}

// ---- the kinds and their shares --------------------------------------------------------------

/** How many of `total` each kind gets (the rounding goes to send money). */
export function countsByKind(total: number): Record<TransactionKind, number> {
  const out = {} as Record<TransactionKind, number>;
  let rest = total;
  for (const p of transactionKindList.slice(1)) rest -= out[p.kind] = Math.round(total * p.seed.share);
  out.ceft = Math.max(0, rest);
  return out;
}

// ---- loading ---------------------------------------------------------------------------------

export interface TransactionSeedOptions {
  readonly now: Date;
  /** How many transactions, over all kinds. */
  readonly count: number;
  /** Rows per INSERT (default 5000). */
  readonly batchSize?: number;
  readonly seed?: number;
  /** Called after each batch with the rows loaded so far. */
  readonly onProgress?: (loaded: number, total: number) => void;
}

export interface TransactionSeedSummary {
  readonly byKind: Record<TransactionKind, number>;
  readonly today: number;
}

/** How many of `count` fall on today: a busy day, between 50 and 3,000. */
export function todayShare(count: number): number {
  return Math.min(3000, Math.max(Math.min(50, count), Math.round(count * 0.015)));
}

/**
 * Runs a bulk load into empty tables with their secondary indexes dropped, then builds them again
 * (building an index once is far cheaper than maintaining it row by row). The primary keys stay, but
 * for the tables named in `keysToo`: theirs are dropped as well and made again after the load (the
 * lookup directory's (kind, trace) key takes rows in random order: maintained row by row it outgrew
 * the buffer cache and the load slowed eightfold by 4,000,000 rows). A duplicate key then fails the
 * load at the end instead of at its row; the load's transaction rolls everything back either way.
 * The indexes and keys are made again from their stored definitions even when the load fails.
 */
async function withIndexesDeferred<T>(db: Db, tables: readonly string[], load: () => Promise<T>, keysToo: readonly string[] = []): Promise<T> {
  const empty: string[] = [];
  for (const t of [...tables, ...keysToo]) {
    // a table a database migrated only so far lacks (the partition test seeds at an older migration)
    if (!(await db.one<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [t]))?.r) continue;
    if (!(await db.one(`SELECT 1 FROM ${t} LIMIT 1`))) empty.push(t);
  }
  const indexes = empty.length
    ? await db.query<{ indexname: string; indexdef: string }>(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
          WHERE i.schemaname = current_schema() AND i.tablename = ANY (string_to_array($1, ','))
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [empty.join(',')],
      )
    : [];
  const keyed = empty.filter((t) => keysToo.includes(t));
  const keys = keyed.length
    ? await db.query<{ table: string; name: string; def: string }>(
        `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
          WHERE c.contype = 'p' AND c.conrelid = ANY (SELECT to_regclass(t) FROM unnest(string_to_array($1, ',')) t)`,
        [keyed.join(',')],
      )
    : [];
  for (const i of indexes) await db.exec(`DROP INDEX ${i.indexname}`);
  for (const k of keys) await db.exec(`ALTER TABLE ${k.table} DROP CONSTRAINT ${k.name}`);
  try {
    return await load();
  } finally {
    for (const k of keys) await db.exec(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.name} ${k.def}`);
    // a partitioned table's index prints as CREATE INDEX ... ON ONLY <table>, which would index no partition
    for (const i of indexes) await db.exec(i.indexdef.replace(/ ON ONLY /, ' ON '));
  }
}

/**
 * The acquiring IPG provider of each generated transaction (provider_bank_code): one of the active
 * providers that settle its currency (src/server/areas/settlement.ts PROVIDER_RATES_SQL), chosen by a hash of
 * the kind and id so that every provider takes a share and the other columns' dice are untouched;
 * null when no provider settles the currency (or the database has no providers yet).
 */
async function providerPicker(db: Db): Promise<(kind: TransactionKind, id: number, currency: string) => string | null> {
  const byCurrency = new Map<string, string[]>();
  for (const r of await db.query<{ currency_code: string; provider_bank_code: string }>(`SELECT currency_code, provider_bank_code FROM (${PROVIDER_RATES_SQL}) r ORDER BY 2`)) {
    byCurrency.set(r.currency_code, [...(byCurrency.get(r.currency_code) ?? []), r.provider_bank_code]);
  }
  return (kind, id, currency) => {
    const codes = byCurrency.get(currency);
    if (!codes) return null;
    let h = 2166136261;
    for (const c of `${kind}|${id}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    return codes[h % codes.length];
  };
}

/** Inserts the columns the rows name (any of them); the table's other columns take their defaults. */
async function insertJson(db: Db, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const named = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) named.add(key);
  const columns = [...named];
  if (!columns.every((c) => /^[a-z_][a-z0-9_]*$/.test(c))) throw new Error(`insertJson ${table}: bad column name`);
  const list = columns.join(', ');
  await db.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`, [rows]);
}

/**
 * Adds `count` generated transactions (ids continue after the existing ones) and their roll-up.
 * Deterministic for a given `now`, count and seed.
 */
export async function seedTransactions(db: Db, options: TransactionSeedOptions): Promise<TransactionSeedSummary> {
  await syncRollupTimeZone(db, readBusinessTimeZone());
  // the month partitions of every month the rows fall in (migration 140), so that none goes to DEFAULT
  await ensureMonthPartitions(db, seedRangeStart(options.now), new Date(options.now.getTime() + 31 * DAY), transactionTables);
  // transaction_traces: the lookup directory the triggers fill (migration 170), its key deferred too
  const load = () => withIndexesDeferred(db, [...transactionKindList.map((p) => p.table), 'insurance_dependants'], () => loadTransactions(db, options), ['transaction_traces']);
  return (await transactionsEmpty(db)) ? withRollupsDeferred(db, load) : load();
}

/** Whether the five transaction tables hold no row. */
async function transactionsEmpty(db: Db): Promise<boolean> {
  for (const p of transactionKindList) if (await db.one(`SELECT 1 FROM ${p.table} LIMIT 1`)) return false;
  return true;
}

/** The INSERT triggers that keep the roll-ups (migrations 60 and 62): per statement, upserts into a few summary rows. */
const ROLLUP_INSERT_TRIGGERS = /_(transaction_stats|transaction_activity|bill_billers)_maintain_ins$/;

/**
 * Runs a bulk load into empty transaction tables with the roll-ups' INSERT triggers off, then builds the
 * roll-ups once from the rows (transaction_stats_rebuild, transaction_activity_rebuild: what the
 * triggers would have summed). Kept on, each statement of the load rewrites the same few thousand
 * summary rows, and inside the load's one transaction none of their old versions can be cleared: every
 * statement walked longer version chains, and 10,000,000 rows slowed from 13,000 to under 2,000 a second.
 * The triggers are on again even when the load fails.
 */
async function withRollupsDeferred<T>(db: Db, load: () => Promise<T>): Promise<T> {
  const triggers = (
    await db.query<{ table: string; name: string }>(
      `SELECT tg.tgrelid::regclass::text AS table, tg.tgname AS name FROM pg_trigger tg
        WHERE NOT tg.tgisinternal AND tg.tgrelid = ANY (SELECT to_regclass(t) FROM unnest(string_to_array($1, ',')) t)`,
      [transactionKindList.map((p) => p.table).join(',')],
    )
  ).filter((t) => ROLLUP_INSERT_TRIGGERS.test(t.name));
  for (const t of triggers) await db.exec(`ALTER TABLE ${t.table} DISABLE TRIGGER ${t.name}`);
  let result: T;
  try {
    result = await load();
  } finally {
    for (const t of triggers) await db.exec(`ALTER TABLE ${t.table} ENABLE TRIGGER ${t.name}`);
  }
  await db.query('SELECT transaction_stats_rebuild()');
  await db.query('SELECT transaction_activity_rebuild()');
  return result;
}

async function loadTransactions(db: Db, options: TransactionSeedOptions): Promise<TransactionSeedSummary> {
  const now = options.now.getTime();
  const seed = options.seed ?? TRANSACTION_SEED;
  const batchSize = options.batchSize ?? 5000;
  const byKind = countsByKind(options.count);
  const todayTotal = todayShare(options.count);
  const customers = await loadCustomers(db, new Rng(seed), options.count);
  const providerOf = await providerPicker(db);
  let loaded = 0;

  for (const plan of transactionKindList) {
    const n = byKind[plan.kind];
    if (n === 0) continue;
    const rng = new Rng(seed * 31 + plan.seed.stream);
    const today = Math.round((todayTotal * n) / Math.max(1, options.count));
    const times = initiatedTimes(rng, n, today, options.now);
    const base = Number((await db.one<{ max: number | null }>(`SELECT max(id) AS max FROM ${plan.table}`))?.max ?? 0);
    let nextDependant = plan.kind === 'insurance' ? Number((await db.one<{ max: number | null }>('SELECT max(id) AS max FROM insurance_dependants'))?.max ?? 0) : 0;
    const dependantId = () => ++nextDependant;

    let pending: Promise<void> = Promise.resolve();
    for (let start = 0; start < n; start += batchSize) {
      const rows: Record<string, unknown>[] = [];
      const dependants: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(n, start + batchSize); i++) {
        const ctx: RowContext = { rng, id: base + i + 1, t: times[i], now, customer: pickCustomer(rng, customers) };
        const g =
          plan.kind === 'ceft'
            ? ceftRow(ctx)
            : plan.kind === 'bill'
              ? billRowOf(ctx)
              : plan.kind === 'echannelling'
                ? eChannellingRowOf(ctx)
                : plan.kind === 'thyaga'
                  ? thyagaRowOf(ctx)
                  : insuranceRowOf(ctx, dependantId);
        g.row.provider_bank_code = providerOf(plan.kind, g.row.id as number, g.row.currency_code as string);
        rows.push(g.row);
        if (g.dependants) dependants.push(...g.dependants);
      }
      // generate the next batch while this one is being written
      await pending;
      pending = insertJson(db, plan.table, rows).then(() => insertJson(db, 'insurance_dependants', dependants));
      loaded += rows.length;
      options.onProgress?.(loaded, options.count);
    }
    await pending;
    await db.query(`SELECT setval(pg_get_serial_sequence('${plan.table}', 'id'), (SELECT max(id) FROM ${plan.table}))`);
  }
  if (byKind.insurance > 0) {
    await db.query(`SELECT setval(pg_get_serial_sequence('insurance_dependants', 'id'), greatest(1, (SELECT max(id) FROM insurance_dependants)))`);
  }
  return { byKind, today: todayTotal };
}

/**
 * The transaction tables, the roll-up and the action log, emptied (ids restart at 1). Tables of other
 * areas that reference transactions (e.g. settled_transactions) are emptied with them (CASCADE): the
 * rows they pointed at are gone.
 */
export async function clearTransactions(db: Db): Promise<void> {
  await db.exec(
    `TRUNCATE insurance_dependants, ${transactionKindList.map((p) => p.table).join(', ')}, transaction_daily_stats, transaction_monthly_stats, bill_daily_billers, transaction_actions RESTART IDENTITY CASCADE`,
  );
}

/**
 * Replaces every transaction with `count` generated ones (npm run seed -- --transactions N), in one
 * database transaction: a seed that is killed or fails leaves the previous set (and its indexes) as
 * they were, never a part of the new one. Readers of the transaction tables wait until it is done.
 */
export async function replaceTransactions(db: Db, options: TransactionSeedOptions): Promise<TransactionSeedSummary> {
  // the months first, in their own short transaction: the load's transaction then finds them made and
  // takes no partition lock (which it would hold, for every other server in the database, until it ends)
  await ensureMonthPartitions(db, seedRangeStart(options.now), new Date(options.now.getTime() + 31 * DAY), transactionTables);
  const summary = await db.tx(async (tx) => {
    await clearTransactions(tx);
    return seedTransactions(tx, options);
  });
  if (db.kind === 'pg')
    await db.exec(
      `ANALYZE ${transactionKindList.map((p) => p.table).join(', ')}, insurance_dependants, transaction_daily_stats, transaction_monthly_stats, bill_daily_billers, app_user_activity, beneficiary_activity`,
    );
  return summary;
}

/** The demo's transactions, for areaSeeders: SEED_TRANSACTIONS of them (default 20,000). */
export async function seedDemoTransactions(db: Db, ctx: { now: Date }): Promise<void> {
  const wanted = process.env.SEED_TRANSACTIONS === undefined || process.env.SEED_TRANSACTIONS === '' ? DEFAULT_DEMO_TRANSACTIONS : Number(process.env.SEED_TRANSACTIONS);
  if (!Number.isInteger(wanted) || wanted < 0) throw new Error('SEED_TRANSACTIONS must be a whole number');
  await seedTransactions(db, { now: ctx.now, count: wanted });
}
