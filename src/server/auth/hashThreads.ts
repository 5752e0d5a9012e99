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
 * The priority is set per thread through Linux's /proc/thread-self; elsewhere the threads keep the
 * process's priority (the hashing still leaves the main thread free).
 */
import { Worker } from 'node:worker_threads';

const MAX_THREADS = 4;

/** Plain JavaScript, run with `eval`, so the same code works under tsx, vitest and a build. */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
const { readlinkSync } = require('node:fs');
const { getPriority, setPriority } = require('node:os');
let tid = 0;
try {
  tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  setPriority(tid, 19);
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

const idle: Worker[] = [];
const busy = new Map<Worker, Job>();
const waiting: Job[] = [];
let nextId = 1;

function startThread(): Worker {
  const worker = new Worker(THREAD_SOURCE, { eval: true });
  worker.unref();
  worker.on('message', (reply: Reply) => {
    const job = busy.get(worker);
    busy.delete(worker);
    if (job) job.resolve(reply);
    release(worker);
  });
  const fail = (err: Error) => {
    const job = busy.get(worker);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    job?.reject(err);
    pump();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`password hashing thread exited (${code})`)));
  return worker;
}

function release(worker: Worker) {
  const job = waiting.shift();
  if (job) run(worker, job);
  else idle.push(worker);
}

function run(worker: Worker, job: Job) {
  busy.set(worker, job);
  worker.postMessage(job.message);
}

function pump() {
  while (waiting.length > 0 && busy.size + idle.length < MAX_THREADS) run(startThread(), waiting.shift()!);
}

function ask(message: Record<string, unknown>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const job: Job = { message: { ...message, id: nextId++ }, resolve, reject };
    const worker = idle.pop() ?? (busy.size < MAX_THREADS ? startThread() : undefined);
    if (worker) run(worker, job);
    else waiting.push(job);
  });
}

/** scrypt of the password, on a low-priority thread. */
export async function scryptOnThread(password: string, salt: Uint8Array, keyLength: number, n: number, r: number, p: number): Promise<Buffer> {
  const reply = await ask({ kind: 'scrypt', password, salt, keyLength, n, r, p });
  if (reply.error !== undefined || !reply.key) throw new Error(reply.error ?? 'no key');
  return Buffer.from(reply.key);
}

/** The nice value of a hashing thread (null where it cannot be read): for tests. */
export async function hashThreadPriority(): Promise<number | null> {
  return (await ask({ kind: 'priority' })).priority ?? null;
}
