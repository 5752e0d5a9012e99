/**
 * `npm run bench:signin [-- --runs 20]` (PGlite in memory), or with `BENCH_DATABASE_URL=postgres://...`
 * (a fresh schema there, dropped at the end).
 *
 * Password hashing is CPU-bound (scrypt at the production cost, DEFAULT_SCRYPT_N),
 * so the server runs a bounded number of hashes at once and queues the rest fairly per client address
 * (src/server/auth/fairQueue.ts). This measures what a flood of wrong passwords does to everyone else:
 * the server runs in a process of its own (this script forked with `--serve`, as a deployed server runs
 * apart from its clients) with TRUST_PROXY=loopback, and X-Forwarded-For names the client, so this one
 * client process acts as many addresses.
 *
 * Cases, each timed --runs times (p50 and p95, milliseconds), for a valid sign-in from an address
 * never used before and from an address the user signed in from before (whose check is queued first):
 * - a valid sign-in from its own address, alone;
 * - the same while 70 wrong sign-ins from one address run in parallel (started just before it; each
 *   round uses a fresh flooding address and fresh usernames, so the limits per address and per
 *   username do not refuse them before their hash);
 * - the same while 70 wrong sign-ins from 70 addresses run in parallel;
 * - an ordinary list call (user/list) of a signed-in user: idle; sent with the valid sign-in, 20 ms into
 *   the one-address flood (while the server is still taking in the burst of 70 requests); and one
 *   after another from then until the flood has been answered (every moment of it); and two references
 *   with no flood: sent together with a valid sign-in (its hash runs meanwhile), and sent 20 ms into a
 *   burst of 70 ordinary user/list calls of another user (what taking in any 70 requests costs).
 * - a valid sign-in of another user (from an address of its own), alone and while 16 valid sign-ins
 *   of one account run in parallel, from 16 addresses and from one (nothing limits successes: each
 *   costs a full hash).
 * The goals: the valid sign-in's p95 under the one-address flood, and the other user's p95 during the
 * one account's parallel sign-ins, within 2x of its p95 alone. `--only-account` runs the last case
 * alone (the sign-ins of one account, and their reference).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildApp, defaultHashConcurrency } from '../src/server/app';
import { DEFAULT_SCRYPT_N, hashPassword } from '../src/server/auth/passwords';
import { openDb } from '../src/server/db/db';
import { migrate } from '../src/server/db/migrate';
import { DEMO_PASSWORD, seedDemo } from '../src/server/seed/demo';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;
const FLOOD = 70;
const RATIO_GOAL = 2;
/** Parallel valid sign-ins of one account. */
const ACCOUNT_BURST = 16;
const ONLY_ACCOUNT = process.argv.includes('--only-account');

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

/** The server's process: migrates and seeds a database, listens, sends its port, and cleans up when told. */
async function serve(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const schema = databaseUrl ? `bench_signin_${randomBytes(4).toString('hex')}` : undefined;
  const db = await openDb(databaseUrl ? { databaseUrl, schema } : {});
  await migrate(db);
  await seedDemo(db, { scryptN: 2 ** 10 });
  // the signing-in user at the production cost, as deployed
  // (and the accounts of the parallel sign-ins of one account, and of the other user signing in meanwhile)
  await db.query("UPDATE console_users SET password_hash = $1 WHERE username IN ('admin', 'auditor', 'checker')", [await hashPassword(DEMO_PASSWORD, DEFAULT_SCRYPT_N)]);
  const hashConcurrency = defaultHashConcurrency();
  const app = await buildApp({ db, secret: randomBytes(32), scryptN: DEFAULT_SCRYPT_N, trustProxy: ['loopback'], hashConcurrency });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  process.send!({ port: address.port, hashConcurrency, kind: db.kind });
  process.on('message', () => {
    void (async () => {
      await app.close();
      if (schema) await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
      process.exit(0);
    })();
  });
}

interface Served {
  port: number;
  hashConcurrency: number;
  kind: string;
}

async function main(): Promise<void> {
  // BENCH_CPU_PROF=<dir>: the server process writes a V8 CPU profile there (where its main thread's time goes)
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const server = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...profile] });
  const served = await new Promise<Served>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Served));
    server.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
  });
  const stopServer = () =>
    new Promise<void>((resolve) => {
      server.removeAllListeners('exit');
      server.once('exit', () => resolve());
      server.send('stop');
    });
  try {
    const url = `http://127.0.0.1:${served.port}/api/`;
    const post = async (path: string, body: unknown, from: string, token?: string): Promise<{ status: number; ms: number; json: { data: { token?: string } } }> => {
      const t0 = performance.now();
      const res = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { data: { token?: string } };
      return { status: res.status, ms: performance.now() - t0, json };
    };
    const validSignIn = async (from: string, username = 'admin') => {
      const reply = await post('auth/login', { username, password: DEMO_PASSWORD }, from);
      if (reply.status !== 200) throw new Error(`valid sign-in answered ${reply.status}`);
      return reply.ms;
    };
    let round = 0;
    const flood = (addresses: 'one' | 'many') => {
      const r = ++round;
      return Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          post('auth/login', { username: `flood_${r}_${i}`, password: 'Wrong@Pass1' }, addresses === 'one' ? `10.1.${r % 250}.${Math.floor(r / 250) + 1}` : `10.2.${r % 250}.${i + 1}`),
        ),
      );
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

    const token = (await post('auth/login', { username: 'maker', password: DEMO_PASSWORD }, '198.51.100.250')).json.data.token!;
    const otherToken = (await post('auth/login', { username: 'checker', password: DEMO_PASSWORD }, '198.51.100.252')).json.data.token!;
    const listCall = async (as = token, from = '198.51.100.251') => {
      const reply = await post('user/list', { data: '', fetchCount: 10 }, from, as);
      if (reply.status !== 200) throw new Error(`user/list answered ${reply.status}`);
      return reply.ms;
    };
    /** The reference for "a burst": 70 ordinary list calls of another signed-in user at once. */
    const ordinaryBurst = () => Promise.all(Array.from({ length: FLOOD }, () => listCall(otherToken, '198.51.100.253')));

    const KNOWN = '198.51.100.1';
    /** A first sign-in from an address never used before (the `n`th of the case). */
    const fresh = (block: number, n: number) => `198.51.${101 + block}.${n + 1}`;
    await validSignIn(KNOWN); // warm up; from now on KNOWN is an address admin signed in from
    await listCall();

    // another user's valid sign-in (checker, from an address of its own each time), alone and while
    // ACCOUNT_BURST valid sign-ins of one account (auditor) run in parallel, from as many addresses or from one
    const otherAlone: number[] = [];
    const otherDuringMany: number[] = [];
    const otherDuringOne: number[] = [];
    let burstRefused = 0;
    const accountBurst = (addresses: 'one' | 'many', r: number) =>
      Promise.all(Array.from({ length: ACCOUNT_BURST }, (_, i) => post('auth/login', { username: 'auditor', password: DEMO_PASSWORD }, addresses === 'one' ? `10.3.${r}.1` : `10.4.${r}.${i + 1}`)));
    // alone and during, in turn in every round, so that a change in the machine's load meanwhile touches both
    for (let i = 0; i < RUNS; i++) {
      otherAlone.push(await validSignIn(fresh(4, i), 'checker'));
      for (const addresses of ['many', 'one'] as const) {
        const burst = accountBurst(addresses, i);
        await settle();
        (addresses === 'many' ? otherDuringMany : otherDuringOne).push(await validSignIn(fresh(addresses === 'many' ? 5 : 6, i), 'checker'));
        const replies = await burst;
        const unexpected = replies.filter((r) => r.status !== 200 && r.status !== 429);
        if (unexpected.length > 0) throw new Error(`a valid sign-in of the burst answered ${unexpected[0].status}`);
        burstRefused += replies.length - replies.filter((r) => r.status === 200).length;
      }
    }
    const p = (values: number[]) => [quantile(values, 0.5).toFixed(0), quantile(values, 0.95).toFixed(0)];
    const ratio = (values: number[], base: number[]) => (quantile(values, 0.95) / quantile(base, 0.95)).toFixed(2);
    const accountRows = [
      ['valid sign-in of another user, alone', String(RUNS), ...p(otherAlone), '1.00'],
      [`  same, during ${ACCOUNT_BURST} parallel valid sign-ins of one account from ${ACCOUNT_BURST} addresses`, String(RUNS), ...p(otherDuringMany), ratio(otherDuringMany, otherAlone)],
      [`  same, during ${ACCOUNT_BURST} parallel valid sign-ins of one account from one address`, String(RUNS), ...p(otherDuringOne), ratio(otherDuringOne, otherAlone)],
    ];
    const accountGoal = Math.max(quantile(otherDuringMany, 0.95), quantile(otherDuringOne, 0.95)) / quantile(otherAlone, 0.95);
    const accountSummary = [
      `One account's ${ACCOUNT_BURST} parallel valid sign-ins: ${burstRefused} of ${2 * RUNS * ACCOUNT_BURST} refused (429).`,
      `Goal: another user's p95 during them within ${RATIO_GOAL}x of alone: ${accountGoal <= RATIO_GOAL ? 'met' : 'NOT met'} (${accountGoal.toFixed(2)}x).`,
    ];
    const printTable = (title: string, rows: string[][]) => {
      const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
      const line = (r: readonly string[]) => `| ${r.map((c, i) => (i >= 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
      console.log(`\n${title}`);
      console.log(line(rows[0]));
      console.log(`|${widths.map((w, i) => (i >= 1 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
      for (const r of rows.slice(1)) console.log(line(r));
    };
    const header = ['case', 'runs', 'p50 ms', 'p95 ms', 'p95 / alone'];
    const title = `Sign-in under a flood: ${served.kind === 'pg' ? 'PostgreSQL' : 'PGlite'}, scrypt N = 2^${Math.log2(DEFAULT_SCRYPT_N)}, ${RUNS} runs per case`;
    if (ONLY_ACCOUNT) {
      printTable(title, [header, ...accountRows]);
      console.log(`\n${accountSummary.join('\n')}\nHash places: ${served.hashConcurrency}.`);
      return;
    }

    const alone: number[] = [];
    const aloneKnown: number[] = [];
    const listIdle: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      alone.push(await validSignIn(fresh(0, i)));
      aloneKnown.push(await validSignIn(KNOWN));
    }
    // the idle baseline of the list call: as many samples as a p95 needs (20 per run)
    for (let i = 0; i < 20 * RUNS; i++) listIdle.push(await listCall());
    const underOne: number[] = [];
    const underOneKnown: number[] = [];
    const listUnderOne: number[] = [];
    const listThroughout: number[] = [];
    const underMany: number[] = [];
    const underManyKnown: number[] = [];
    const listWithSignIn: number[] = [];
    const listInOrdinaryBurst: number[] = [];
    let refusedOne = 0;
    for (let i = 0; i < RUNS; i++) {
      // the references, no flood: a list call sent with a valid sign-in (whose own hash runs meanwhile),
      // and a list call sent 20 ms into a burst of 70 ordinary list calls (what any burst of 70 costs)
      for (const known of [false, true]) listWithSignIn.push((await Promise.all([validSignIn(known ? KNOWN : fresh(3, i)), listCall()]))[1]);
      for (let k = 0; k < 2; k++) {
        const burst = ordinaryBurst();
        await settle();
        listInOrdinaryBurst.push(await listCall());
        await burst;
      }
      for (const known of [false, true]) {
        const flooding = flood('one');
        await settle();
        const [signIn, list] = await Promise.all([validSignIn(known ? KNOWN : fresh(1, i)), listCall()]);
        (known ? underOneKnown : underOne).push(signIn);
        listUnderOne.push(list);
        // then one list call after another until the flood has been answered
        let flooded = false;
        void flooding.then(() => (flooded = true));
        while (!flooded) listThroughout.push(await listCall());
        refusedOne += (await flooding).filter((r) => r.status === 429).length;
      }
      for (const known of [false, true]) {
        const flooding = flood('many');
        await settle();
        (known ? underManyKnown : underMany).push(await validSignIn(known ? KNOWN : fresh(2, i)));
        await flooding;
      }
    }
    const rows = [
      header,
      ['valid sign-in from a new address, alone', String(RUNS), ...p(alone), '1.00'],
      [`  same, ${FLOOD} wrong from one address in parallel`, String(RUNS), ...p(underOne), ratio(underOne, alone)],
      [`  same, ${FLOOD} wrong from ${FLOOD} addresses in parallel`, String(RUNS), ...p(underMany), ratio(underMany, alone)],
      ['valid sign-in from a known address, alone', String(RUNS), ...p(aloneKnown), '1.00'],
      [`  same, ${FLOOD} wrong from one address in parallel`, String(RUNS), ...p(underOneKnown), ratio(underOneKnown, aloneKnown)],
      [`  same, ${FLOOD} wrong from ${FLOOD} addresses in parallel`, String(RUNS), ...p(underManyKnown), ratio(underManyKnown, aloneKnown)],
      ['user/list, idle', String(listIdle.length), ...p(listIdle), '1.00'],
      ['  reference: sent with a valid sign-in, no flood', String(listWithSignIn.length), ...p(listWithSignIn), ratio(listWithSignIn, listIdle)],
      [`  reference: sent 20 ms into ${FLOOD} parallel user/list calls of another user`, String(listInOrdinaryBurst.length), ...p(listInOrdinaryBurst), ratio(listInOrdinaryBurst, listIdle)],
      [`user/list, ${FLOOD} wrong from one address in parallel (sent with the valid sign-in)`, String(2 * RUNS), ...p(listUnderOne), ratio(listUnderOne, listIdle)],
      [`user/list, one after another until the flood is answered`, String(listThroughout.length), ...p(listThroughout), ratio(listThroughout, listIdle)],
      ...accountRows,
    ];
    printTable(title, rows);
    const goal = quantile(underOne, 0.95) / quantile(alone, 0.95);
    console.log(`\nOne-address flood: ${refusedOne} of ${2 * RUNS * FLOOD} wrong sign-ins refused before their hash by the address limiter (${FLOOD - 50} a round expected).`);
    console.log(`Goal: p95 under the one-address flood within ${RATIO_GOAL}x of alone: ${goal <= RATIO_GOAL ? 'met' : 'NOT met'} (${goal.toFixed(2)}x).`);
    const burstRatio = quantile(listUnderOne, 0.95) / quantile(listWithSignIn, 0.95);
    console.log(
      `user/list in the burst's first moments: p95 ${burstRatio.toFixed(2)}x that of a list call sent with a valid sign-in and no flood; ${(quantile(listUnderOne, 0.95) / quantile(listInOrdinaryBurst, 0.95)).toFixed(2)}x that of one sent into ${FLOOD} ordinary list calls.`,
    );
    console.log(accountSummary.join('\n'));
    console.log(`Hash places: ${served.hashConcurrency}; a known address is one the username signed in from before (its check is queued first).`);
  } finally {
    await stopServer();
  }
}

// (fetch's kept-alive sockets and the unreferenced hashing threads: exit without waiting for them)
(process.argv.includes('--serve') ? serve() : main()).then(
  () => process.argv.includes('--serve') || process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
