/**
 * The server-side rules of each call as its handler declares them (`handle(contract, fn, rules)`):
 * guards, change requests, decisions and four eyes, by call path. Codegen renders them in the screen
 * specs and `npm run review` compares them between revisions.
 */
import { allHandlers } from './areas/index';
import type { ServerRules } from './http/handle';

export const callRules: Readonly<Record<string, ServerRules>> = Object.fromEntries(allHandlers.filter((h) => h.rules).map((h) => [h.contract.path, h.rules!]));
