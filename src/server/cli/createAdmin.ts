/**
 * `npm run create-admin -- --username X --password Y --name "..." --email ... --contact ...`
 * (asks on stdin for whatever is missing). Creates a super-permission role if there is none and an
 * active administrator directly: the bootstrap account is the one change that is not maker-checked.
 */
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { userFields } from '../../api/users';
import { SUPER_PERMISSION } from '../../domain/permissions';
import { isValidPassword, messages } from '../../domain/validation';
import { writeActivity } from '../activityLog';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/db';
import { openMigratedDb, readEnvironment } from '../environment';
import { HEAD_OFFICE, userLevels } from '../seed/referenceData';

interface AdminAccount {
  username: string;
  password: string;
  name: string;
  email: string;
  contact: string;
}

const questions: { key: keyof AdminAccount; label: string; hidden?: boolean; check: (v: string) => string | undefined }[] = [
  { key: 'username', label: 'Username', check: (v) => zodMessage(userFields.username, v) },
  { key: 'password', label: 'Password', hidden: true, check: (v) => (isValidPassword(v) ? undefined : messages.password) },
  { key: 'name', label: 'Name', check: (v) => zodMessage(userFields.name, v) },
  { key: 'email', label: 'Email', check: (v) => zodMessage(userFields.email, v) },
  { key: 'contact', label: 'Contact number (10 digits)', check: (v) => zodMessage(userFields.contact, v) },
];

function zodMessage(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: string) {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error?.issues[0]?.message;
}

async function readAccount(): Promise<AdminAccount> {
  const { values } = parseArgs({
    options: Object.fromEntries(questions.map((q) => [q.key, { type: 'string' as const }])),
    strict: true,
  });
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) stdout.write(chunk, encoding);
      done();
    },
  });
  const rl = createInterface({ input: stdin, output, terminal: stdin.isTTY });
  // the iterator buffers lines, so answers piped in all at once are not lost between questions
  const lines = rl[Symbol.asyncIterator]();
  const account = {} as AdminAccount;
  try {
    for (const q of questions) {
      let value = values[q.key];
      if (value === undefined) {
        stdout.write(`${q.label}: `);
        muted = !!q.hidden && stdin.isTTY;
        const line = await lines.next();
        if (muted || !stdin.isTTY) stdout.write('\n');
        muted = false;
        if (line.done) throw new Error(`${q.label}: no answer given`);
        value = line.value;
      }
      value = q.key === 'password' ? value : value.trim();
      const problem = q.check(value);
      if (problem) throw new Error(`${q.label}: ${problem}`);
      account[q.key] = value;
    }
  } finally {
    rl.close();
  }
  return account;
}

async function superRoleId(db: Db): Promise<number> {
  const existing = await db.one<{ id: number }>(`SELECT id FROM roles WHERE permissions @> $1::jsonb AND disabled = 0 ORDER BY id LIMIT 1`, [[SUPER_PERMISSION]]);
  if (existing) return existing.id;
  for (const l of userLevels) {
    await db.query('INSERT INTO user_levels (level, title) VALUES ($1, $2) ON CONFLICT (level) DO NOTHING', [l.level, l.title]);
  }
  const taken = await db.one("SELECT 1 FROM roles WHERE lower(role_name) = 'administrator'");
  const created = await db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions)
     VALUES ($1, 'BACKEND', (SELECT id FROM user_levels ORDER BY level DESC LIMIT 1), $2) RETURNING id`,
    [taken ? 'Super Administrator' : 'Administrator', [SUPER_PERMISSION]],
  );
  return created!.id;
}

async function main(): Promise<void> {
  const account = await readAccount();
  const db = await openMigratedDb(readEnvironment());
  try {
    const passwordHash = await hashPassword(account.password);
    await db.tx(async (tx) => {
      if (await tx.one('SELECT 1 FROM console_users WHERE lower(username) = lower($1)', [account.username])) {
        throw new Error(`Username "${account.username}" already exists`);
      }
      const roleId = await superRoleId(tx);
      await tx.query('INSERT INTO branches (code, name) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING', [HEAD_OFFICE.code, HEAD_OFFICE.name]);
      await tx.query(
        `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, disabled, password_hash)
         VALUES ($1, $2, $3, $4, 'BACKEND', $5, $6, 0, $7)`,
        [account.name, account.email, account.contact, account.username, HEAD_OFFICE.code, roleId, passwordHash],
      );
      await writeActivity(tx, { type: 'ADMIN_CREATED', username: 'create-admin', description: `Created the administrator ${account.username} from the command line` }, new Date());
    });
    console.log(`Administrator "${account.username}" created. Sign in with the password you chose.`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
