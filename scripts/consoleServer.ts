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
  /** SIGTERM, then SIGKILL if it has not exited within 2 s. */
  stop(): Promise<void>;
}

/** How long the server may take to answer (SERVER_START_SECONDS, default 120: a heavily loaded machine needs more). */
export const SERVER_START_MS = (Number(process.env.SERVER_START_SECONDS) > 0 ? Number(process.env.SERVER_START_SECONDS) : 120) * 1000;

export async function startConsoleServer(env: Record<string, string>): Promise<ConsoleServer> {
  if (!existsSync(join(process.cwd(), 'dist', 'index.html'))) throw new Error('Build the console first (npm run build)');
  const port = await freePort();
  const child: ChildProcess = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (output = (output + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/login`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in ${SERVER_START_MS / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      for (let i = 0; i < 20 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
