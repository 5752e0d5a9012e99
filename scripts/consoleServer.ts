/**
 * Starts the real server (`tsx src/server/main.ts`, as `npm start` does) as a child process on a free
 * port, serving the built console (dist/), and waits until it answers. Used by the browser tests
 * (tests/e2e/harness.ts) and the browser bench (scripts/bench-browser.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../src/server/freePort';

export interface ConsoleServer {
  readonly url: string;
  /**
   * SIGTERM, then SIGKILL if it has not exited within `graceMs` (default 2 s); resolves to its exit
   * code (0 when it shut down cleanly, closing its database; null when it was killed).
   */
  stop(graceMs?: number): Promise<number | null>;
}

/** How long the server may take to answer by default (SERVER_START_SECONDS, default 120: a heavily loaded machine needs more). */
export const SERVER_START_MS = (Number(process.env.SERVER_START_SECONDS) > 0 ? Number(process.env.SERVER_START_SECONDS) : 120) * 1000;

/** `startMs`: how long it may take to answer (migrating and seeding an empty database included). */
export async function startConsoleServer(env: Record<string, string>, startMs = SERVER_START_MS): Promise<ConsoleServer> {
  if (!existsSync(join(process.cwd(), 'dist', 'index.html'))) throw new Error('Build the console first (npm run build)');
  const port = await freePort();
  const child: ChildProcess = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a process group of its own: tsx runs the server in a child process, which a SIGKILL to tsx
    // alone would leave running (seeding on, holding its port and data folder)
    detached: true,
  });
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  // ...and ends with the process that started it
  const onExit = () => signal('SIGKILL');
  process.once('exit', onExit);
  child.once('exit', () => process.removeListener('exit', onExit));
  let output = '';
  child.stdout?.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (output = (output + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/login`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      signal('SIGKILL');
      throw new Error(`server did not start in ${startMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async stop(graceMs = 2000) {
      child.kill('SIGTERM');
      for (const deadline = Date.now() + graceMs; Date.now() < deadline && child.exitCode === null;) await new Promise((r) => setTimeout(r, 100));
      if (child.exitCode === null) signal('SIGKILL');
      return child.exitCode;
    },
  };
}
