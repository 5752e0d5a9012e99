/**
 * `npm run checks` (the first step of `npm test`): the type check, the lint, the format check and the
 * console build at the same time instead of one after the other. The type check alone takes about as
 * long as the other three together, so on two cores the step takes about as long as the type check.
 * Each command's output is printed as a block when it ends; the step fails if any command failed
 * (all of them still run to the end, so one run reports every problem).
 */
import { spawn } from 'node:child_process';

const steps = ['typecheck', 'lint', 'format:check', 'build'] as const;

interface Outcome {
  step: string;
  code: number | null;
  seconds: number;
}

function run(step: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', step], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') } });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    let done = false;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      const seconds = (Date.now() - started) / 1000;
      const text = Buffer.concat(output).toString().trimEnd();
      process.stdout.write(`\n── npm run ${step}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s\n${text ? `${text}\n` : ''}`);
      resolve({ step, code, seconds });
    };
    child.once('error', (err) => {
      output.push(Buffer.from(String(err)));
      finish(null);
    });
    child.once('close', finish);
  });
}

const outcomes = await Promise.all(steps.map(run));
const failed = outcomes.filter((o) => o.code !== 0);
if (failed.length > 0) {
  process.stdout.write(`\nchecks failed: ${failed.map((o) => o.step).join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`\nchecks passed: ${outcomes.map((o) => `${o.step} ${o.seconds.toFixed(1)} s`).join(', ')}\n`);
