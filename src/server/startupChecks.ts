/**
 * The server's start-up checks of the screen definitions (src/console/checks.ts): the same checks the
 * console runs, without the modal registry (the server has no modals). Throws, listing every problem
 * with its stable code, so a server with inconsistent definitions does not start.
 */
import type { ExportField } from '../api/contract';
import { screens } from '../../screens';
import { checkDefinitions, describeProblems, type CheckProblem } from '../console/checks';

export interface StartupCheckOptions {
  /** Export columns the server returns for a list screen (`fields` of its list call), by screen id. */
  readonly exportFields?: Readonly<Record<string, readonly ExportField[]>>;
}

export function runStartupChecks(options: StartupCheckOptions = {}): void {
  const problems: CheckProblem[] = checkDefinitions(screens, { skipModals: true, exportFields: options.exportFields });
  if (problems.length) throw new Error(`The server cannot start: the screen definitions are inconsistent:\n${describeProblems(problems)}`);
}
