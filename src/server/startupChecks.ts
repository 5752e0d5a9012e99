/**
 * The server's start-up checks. The screen definitions (src/definitions/checks.ts): the same checks the
 * console runs, without the modal registry (the server has no modals). Throws, listing every problem
 * with its stable code, so a server with inconsistent definitions does not start. And, in
 * production, the deployment: a session secret of its own and no demo accounts.
 */
import type { ExportField } from '../api/contract';
import { screens } from '../../screens';
import { checkDefinitions, describeProblems, type CheckProblem } from '../definitions/checks';
import type { Db } from './db/db';
import { demoAccountUsernames, REMOVE_DEMO_ACCOUNTS_COMMAND } from './demoAccounts';
import { StartupRefusal } from './environment';

export interface StartupCheckOptions {
  /** Export columns the server returns for a list screen (`fields` of its list call), by screen id. */
  readonly exportFields?: Readonly<Record<string, readonly ExportField[]>>;
}

export function runStartupChecks(options: StartupCheckOptions = {}): void {
  const problems: CheckProblem[] = checkDefinitions(screens, { skipModals: true, exportFields: options.exportFields });
  if (problems.length) throw new Error(`The server cannot start: the screen definitions are inconsistent:\n${describeProblems(problems)}`);
}

/**
 * What a production server (NODE_ENV=production) needs from its environment before it opens the
 * database: SESSION_SECRET set (a generated secret kept beside the data would be lost, or copied,
 * with it; every process behind a balancer must sign with the same key). Outside production, nothing.
 */
export function checkProductionEnvironment(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV !== 'production') return;
  if (!env.SESSION_SECRET) {
    throw new StartupRefusal(
      'The server cannot start: NODE_ENV=production needs SESSION_SECRET (a random text of at least 32 characters, e.g. from `openssl rand -base64 48`), the key that signs sign-in tokens.',
    );
  }
}

/** A production server refuses a database holding the demo accounts (published password); the message says how to remove them. */
export async function checkNoDemoAccounts(db: Db, env: NodeJS.ProcessEnv): Promise<void> {
  if (env.NODE_ENV !== 'production') return;
  const usernames = await demoAccountUsernames(db);
  if (usernames.length === 0) return;
  const shown = usernames.length > 5 ? `${usernames.slice(0, 5).join(', ')} and ${usernames.length - 5} more` : usernames.join(', ');
  throw new StartupRefusal(
    `The server cannot start: NODE_ENV=production and the database holds ${usernames.length} demo account(s) whose password is published (${shown}). ` +
      `Remove them with \`${REMOVE_DEMO_ACCOUNTS_COMMAND}\` (same DATABASE_URL / DATA_DIR), then create your own administrator with \`npm run create-admin\` if you have none.`,
  );
}
