/**
 * The "Server rules" section of a screen spec: for each call the screen makes, what the server decides
 * beyond the body's validation: its access rule (as in the permission matrix), the guard predicates its
 * handler runs, and whether it creates a change request or decides them. Rendered from the imported
 * screen, contracts and handlers' declared rules (src/server/callRules.ts); doc comments from source.
 */
import type { CallContract } from '../src/api/contract';
import { describeAccess } from '../src/domain/access';
import { callRules } from '../src/server/callRules';
import { allCalls } from '../src/api/index';
import type { Docs } from './docs';
import { code, text } from './markdown';

const isContract = (v: unknown): v is CallContract => !!v && typeof v === 'object' && typeof (v as CallContract).path === 'string' && 'request' in v && 'access' in v;

/** Every contract a screen definition refers to, in the order met (depth first), once each. */
export function callsOf(screen: unknown): CallContract[] {
  const out: CallContract[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || seen.has(v) || depth > 8) return;
    seen.add(v);
    if (isContract(v)) {
      if (!out.some((c) => c.path === v.path)) out.push(v);
      return;
    }
    if ('_zod' in v) return;
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  };
  walk(screen, 0);
  return out;
}

function fnText(fn: { name: string }, docs: Docs): string {
  const d = docs.find(fn.name);
  return `${code(fn.name)}${d ? ` (${code(d.file)})` : ''}${d?.doc ? ` — ${text(d.doc)}` : ''}`;
}

const callName = (c: CallContract, names: (c: CallContract) => string | undefined) => `${code(`POST /api/${c.path}`)}${names(c) ? ` (${code(names(c)!)})` : ''}`;

export function serverRulesSection(screen: unknown, docs: Docs, names: (c: CallContract) => string | undefined): string[] {
  const calls = callsOf(screen);
  if (!calls.length) return [];
  const out = [
    '## Server rules',
    '',
    `What the server decides for each call this screen makes, besides validating the body: the access rule (as in the permission matrix), the guards its handler runs (a refusal answers 4xx and changes nothing) and the change-request behaviour, as each handler declares them (${code('handle(contract, fn, rules)')}, collected in ${code('src/server/callRules.ts')}).`,
  ];
  for (const c of calls) {
    const served = allCalls.find((x) => x.path === c.path) ?? c;
    const r = callRules[served.path];
    out.push('', `### ${callName(served, names)}`, '', `- Access: ${text(describeAccess(served.access))}; anyone else gets 403`);
    out.push(`- Guards: ${r?.guards?.length ? '' : 'none beyond the access rule'}`, ...(r?.guards ?? []).map((g) => `  - ${fnText(g, docs)}`));
    const cr = r?.changeRequest;
    if (cr) {
      const when = cr.onlyWhen ? `when ${fnText(cr.onlyWhen, docs)}; otherwise it acts at once. It ` : '';
      out.push(
        `- Change request: ${when}creates a change request on ${text(cr.entity)} instead of acting (the entity's own checks first; an edit is refused with 409 while the record is locked by a pending request); decided by ${callName(cr.approve, names)}, never by its maker`,
      );
    } else if (!r?.decides && !r?.fourEyes) out.push('- Change request: none; the call acts at once');
    if (r?.fourEyes)
      out.push(
        `- Four eyes: above ${code('MONEY_ACTION_APPROVAL_ABOVE_USD')} (off by default) it becomes a change request on the transaction (locked meanwhile), decided by ${callName(r.fourEyes.approve, names)} by another holder of the action's permission, with the guards run again`,
      );
    if (r?.decides)
      out.push(
        `- Decides: approves or rejects pending change requests of ${r.decides.map(text).join(', ')}; never the decider's own, one decision per request (row lock), the change applied in the same transaction`,
      );
  }
  return out;
}
