/**
 * `npm run test:schema [-- --api <url> --user <name> --password <pw> --cases <n> --seed <n> --min-coverage <0..1>]`:
 * the property-based test of scripts/schemaFuzz.ts, against the backend given or, without --api, the
 * console's own server started in-process on an embedded database with the demo data.
 */
import { reportLines, runSchemaFuzz } from './schemaFuzz';
import { startServer, type TestServer } from '../tests/api/harness';
import { sampleBody } from '../tests/api/samples';

/**
 * Change requests by the demo maker in every area the maker may make in (the sample bodies of the
 * contract's tests, with names made unique), so that the approve calls have something to decide.
 */
export async function fileMakerRequests(server: TestServer, rounds = 3): Promise<number> {
  const token = await server.login('maker');
  const makes = ['bank/create', 'advertisement/create', 'role/create', 'user/create', 'appVersion/create', 'IPGProvider/disable', 'AppUser/hold', 'IPGProvider/currency/save'];
  let made = 0;
  for (let round = 0; round < rounds; round++) {
    for (const path of makes) {
      const body = sampleBody(path) as Record<string, unknown>;
      if (path === 'bank/create') Object.assign(body, { bank_code: `FZ${round}BANK`, bank_name: `Fuzz Bank ${'ABC'[round]}` });
      if (path === 'role/create') body.role_name = `Fuzz Role ${'ABC'[round]}`;
      if (path === 'user/create') Object.assign(body, { username: `fuzz_user_${round}`, email: `fuzz${round}@remit.lk` });
      if (path === 'appVersion/create') body.appVersion = `9.9.${round}+1`;
      if (path === 'advertisement/create') body.title = `Fuzz Ad ${'ABC'[round]}`;
      const res = await fetch(`${server.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      if (res.ok) made++;
    }
  }
  return made;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const own = arg('api') ? undefined : await startServer();
  try {
    if (own) console.log(`The demo maker filed ${await fileMakerRequests(own)} change requests to decide.`);
    const report = await runSchemaFuzz({
      api: arg('api') ?? own!.url,
      user: arg('user') ?? 'admin',
      password: arg('password') ?? process.env.CONFORMANCE_PASSWORD ?? 'Demo@Pass1',
      cases: Number(arg('cases') ?? 50),
      seed: Number(arg('seed') ?? 1),
      skip: ['authLogout'],
      log: (line) => console.log(line),
    });
    for (const line of reportLines(report, process.argv.includes('--verbose'))) console.log(line);
    const minCoverage = Number(arg('min-coverage') ?? 0.95);
    const ok = report.serverErrors === 0 && report.violations === 0 && report.reached >= Math.ceil(minCoverage * report.callable);
    return ok ? 0 : 1;
  } finally {
    await own?.close();
  }
}

if (process.argv[1] && /test-schema\.ts$/.test(process.argv[1]))
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(2);
    },
  );
