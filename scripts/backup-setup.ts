/**
 * `npm run backup:setup -- [--pgdata DIR] [--pgport N] [--socket DIR] [--repo DIR] [--stanza NAME]
 *   [--config FILE] [--retention-full N] [--restart] [--no-backup]`: switches a PostgreSQL 15 cluster on this
 * machine to continuous WAL archiving into a pgBackRest repository and takes its first full backup
 * (docs/backups.md). Run as root (pgBackRest and PostgreSQL run as the postgres user).
 *
 * Defaults: the cluster on port 5432 through the socket in /var/run/postgresql (its data folder read
 * from the server), stanza `remit`, repository /var/lib/pgbackrest, 2 full backups kept, the
 * configuration file pgBackRest reads by default (/etc/pgbackrest/pgbackrest.conf when it exists,
 * else /etc/pgbackrest.conf; other stanzas and settings in it are kept).
 *
 * archive_mode takes effect only at a restart: without --restart the command sets it, says so and
 * stops (exit code 3); restart PostgreSQL then (systemctl restart postgresql@15-main) and run it again.
 * --restart restarts it with pg_ctl (for a cluster started by pg_ctl, not by systemd).
 */
import { existsSync } from 'node:fs';
import { ensurePgbackrest, setupBackups, sql } from './backupPostgres';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

function wholeArg(name: string, fallback: number, min: number, max: number): number {
  const text = arg(name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new Error(`--${name}: "${text}" is not a whole number from ${min} to ${max}`);
  return n;
}

async function main(): Promise<number> {
  const known = new Set(['pgdata', 'pgport', 'socket', 'repo', 'stanza', 'config', 'retention-full', 'restart', 'no-backup']);
  for (const a of process.argv.slice(2)) if (a.startsWith('--') && !known.has(a.slice(2))) throw new Error(`unknown option ${a} (known: ${[...known].map((k) => `--${k}`).join(', ')})`);
  ensurePgbackrest();
  const pgport = wholeArg('pgport', 5432, 1, 65535);
  const socketDir = arg('socket') ?? '/var/run/postgresql';
  const stanza = arg('stanza') ?? 'remit';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stanza)) throw new Error(`--stanza: "${stanza}" is not a name of letters, digits, - and _`);
  const url = `postgres://postgres@${encodeURIComponent(socketDir)}:${pgport}/postgres`;
  const serverDataDir = (await sql<{ setting: string }>(url, "SELECT setting FROM pg_settings WHERE name = 'data_directory'"))[0].setting;
  const pgdata = arg('pgdata') ?? serverDataDir;
  const configFile = arg('config') ?? (existsSync('/etc/pgbackrest/pgbackrest.conf') || !existsSync('/etc/pgbackrest.conf') ? '/etc/pgbackrest/pgbackrest.conf' : '/etc/pgbackrest.conf');
  const result = await setupBackups(
    url,
    {
      configFile,
      stanza,
      repo: arg('repo') ?? '/var/lib/pgbackrest',
      pgdata,
      pgport,
      socketDir,
      retentionFull: wholeArg('retention-full', 2, 1, 9999999),
    },
    { restart: process.argv.includes('--restart'), backup: !process.argv.includes('--no-backup') },
  );
  if (result.restartNeeded && !result.restarted) return 3;
  console.log(`Done. See the stanza with: sudo -u postgres pgbackrest --config=${configFile} --stanza=${stanza} info`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
