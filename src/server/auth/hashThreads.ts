/**
 * scrypt on threads of their own at the lowest CPU priority (nice 19). Password hashing is the one
 * CPU-bound thing the server does on behalf of an anonymous client; libuv's thread pool would run it at
 * the server's own priority, so a flood of sign-ins took the cores from every other call (an ordinary
 * list call's p95 rose ~9x during 70 parallel wrong sign-ins, measured with bench:signin). At nice 19
 * the operating system gives the hashes only the time the server's own thread and PostgreSQL leave:
 * sign-ins wait a little longer under load, nothing else does. How many hashes run at once is still
 * decided by the fair queue (src/server/auth/fairQueue.ts); the pool makes a thread per hash in flight,
 * up to MAX_THREADS, and keeps them (unreferenced, so they never hold the process open).
 *
 * A second set of threads runs at the process's own priority, for the one check at a time that
 * src/server/app.ts judges most likely a person's (a known address, or an address's only attempt), so
 * that it does not share the leftover CPU with a flood's hashes on a busy machine.
 *
 * The priority is set per thread through Linux's /proc/thread-self; elsewhere the threads keep the
 * process's priority (the hashing still leaves the main thread free).
 */
import { Worker } from 'node:worker_threads';

const MAX_THREADS = 4;

/** Plain JavaScript, run with `eval`, so the same code works under tsx, vitest and a build. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
const { readlinkSync } = require('node:fs');
const { getPriority, setPriority } = require('node:os');
let tid = 0;
try {
  tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (workerData.low) setPriority(tid, 19);
} catch {}
parentPort.on('message', (job) => {
  if (job.kind === 'priority') {
    let priority = null;
    try { priority = tid ? getPriority(tid) : null; } catch {}
    parentPort.postMessage({ id: job.id, priority });
    return;
  }
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, { N: job.n, r: job.r, p: job.p, maxmem: 256 * job.n * job.r });
    parentPort.postMessage({ id: job.id, key });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String((err && err.message) || err) });
  }
});
`;

interface Reply {
  id: number;
  key?: Uint8Array;
  error?: string;
  priority?: number | null;
}

interface Job {
  message: Record<string, unknown>;
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}

/** The threads of one priority. */
interface Pool {
  readonly low: boolean;
  readonly idle: Worker[];
  readonly busy: Map<Worker, Job>;
  readonly waiting: Job[];
}

const pools = {
  low: { low: true, idle: [], busy: new Map(), waiting: [] } as Pool,
  normal: { low: false, idle: [], busy: new Map(), waiting: [] } as Pool,
};
let nextId = 1;

function startThread(pool: Pool): Worker {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { low: pool.low } });
  worker.unref();
  worker.on('message', (reply: Reply) => {
    const job = pool.busy.get(worker);
    pool.busy.delete(worker);
    if (job) job.resolve(reply);
    release(pool, worker);
  });
  const fail = (err: Error) => {
    const job = pool.busy.get(worker);
    pool.busy.delete(worker);
    const at = pool.idle.indexOf(worker);
    if (at >= 0) pool.idle.splice(at, 1);
    job?.reject(err);
    pump(pool);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`password hashing thread exited (${code})`)));
  return worker;
}

function release(pool: Pool, worker: Worker) {
  const job = pool.waiting.shift();
  if (job) run(pool, worker, job);
  else pool.idle.push(worker);
}

function run(pool: Pool, worker: Worker, job: Job) {
  pool.busy.set(worker, job);
  worker.postMessage(job.message);
}

function pump(pool: Pool) {
  while (pool.waiting.length > 0 && pool.busy.size + pool.idle.length < MAX_THREADS) run(pool, startThread(pool), pool.waiting.shift()!);
}

function ask(message: Record<string, unknown>, priority: HashPriority): Promise<Reply> {
  const pool = pools[priority];
  return new Promise((resolve, reject) => {
    const job: Job = { message: { ...message, id: nextId++ }, resolve, reject };
    const worker = pool.idle.pop() ?? (pool.busy.size < MAX_THREADS ? startThread(pool) : undefined);
    if (worker) run(pool, worker, job);
    else pool.waiting.push(job);
  });
}

/** `low`: nice 19, the default; `normal`: the process's own priority (see src/server/app.ts for who gets it). */
export type HashPriority = 'low' | 'normal';

/** scrypt of the password, on a thread of the given priority (low unless told). */
export async function scryptOnThread(password: string, salt: Uint8Array, keyLength: number, n: number, r: number, p: number, priority: HashPriority = 'low'): Promise<Buffer> {
  const reply = await ask({ kind: 'scrypt', password, salt, keyLength, n, r, p }, priority);
  if (reply.error !== undefined || !reply.key) throw new Error(reply.error ?? 'no key');
  return Buffer.from(reply.key);
}

/** The nice value of a hashing thread of the given priority (null where it cannot be read): for tests. */
export async function hashThreadPriority(priority: HashPriority = 'low'): Promise<number | null> {
  return (await ask({ kind: 'priority' }, priority)).priority ?? null;
}
