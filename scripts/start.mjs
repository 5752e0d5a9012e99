// `npm start`: build the console when it is missing or older than its sources, then start the server
// (which migrates, seeds demo data into an empty database outside production and serves console and API on
// HOST:PORT, default 127.0.0.1:8080; set HOST=0.0.0.0 to be reached from other machines).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const built = join(root, 'dist', 'index.html');
const sources = ['src', 'screens', 'index.html', 'vite.config.ts', 'tailwind.config.ts'].map((p) => join(root, p)).filter(existsSync);
const stale = !existsSync(built) || sources.some((p) => newest(p) > statSync(built).mtimeMs);
if (stale) {
  console.log('Building the console…');
  const r = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(bin('tsx'), [join(root, 'src/server/main.ts')], { cwd: root, stdio: 'inherit', env: process.env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
