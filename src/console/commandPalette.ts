/**
 * The command palette's entries and how a typed text filters and orders them. Pure: the palette view
 * (views/CommandPalette.tsx) draws them and runs the chosen one.
 *
 * The entries a user gets are those they may use, from the same registry and checks as the sidebar:
 * every menu entry of menuFor (go to a screen), every create screen canOpen lets them open ("New
 * user"), "Approve next" for a user who may open the approvals inbox, and "Find transaction" for a
 * user who may look a transaction up (viewableFindServices, the top-bar search's own rule).
 */
import type { AnyScreen, MenuSectionDef } from '../definitions/definitions';
import { canOpen, menuFor } from '../definitions/access';
import type { ServerSettings } from '../domain/approvals';
import { viewableFindServices } from '../domain/transactionFinder';
import { findBody } from '../api/finder';

/** What choosing an entry does. */
export type PaletteRun =
  | { readonly kind: 'go'; readonly to: string }
  /** Open the oldest pending change request the user may decide, in the approvals inbox (at `to`). */
  | { readonly kind: 'approveNext'; readonly to: string }
  /** Look a trace, ID or UID up with the top-bar search; without a value, just put focus there. */
  | { readonly kind: 'find'; readonly value?: string };

export interface PaletteEntry {
  /** Unique among the entries (the option's id is made from it). */
  readonly id: string;
  readonly label: string;
  /** What kind of entry it is, shown beside the label: 'Reports', 'Create', 'Action'. */
  readonly hint: string;
  /** More words it is found by (the screen's title, its section). */
  readonly keywords: readonly string[];
  readonly run: PaletteRun;
}

/** The approvals inbox's screen id (screens/approvals.ts): "Approve next" is offered to who may open it. */
export const APPROVALS_SCREEN_ID = 'approvals';
/** The approvals inbox's search parameter naming a request to open (`/approvals?request=12`). */
export const APPROVALS_REQUEST_PARAM = 'request';

const FIND_LABEL = 'Find transaction…';

/** "Create App Version" -> "New app version". */
function createLabel(title: string): string {
  return `New ${title.replace(/^Create\s+/i, '').toLowerCase()}`;
}

/**
 * Every entry this user may use, in the order shown before anything is typed: the screens in the
 * sidebar's order, then the create screens, then the actions.
 */
export function paletteEntries(
  screens: readonly AnyScreen[],
  sections: readonly MenuSectionDef[],
  permissions: readonly string[],
  context: { ownProvider?: boolean; settings?: ServerSettings } = {},
): PaletteEntry[] {
  const entries: PaletteEntry[] = [];
  for (const group of menuFor(screens, sections, permissions, context)) {
    for (const item of group.items) {
      const title = screens.find((s) => s.menu?.label === item.label && s.route.replace(/\/\$\w+$/, '') === item.to)?.title ?? item.label;
      entries.push({ id: `go:${item.to}`, label: item.label, hint: group.section === 'Main' ? 'Screen' : group.section, keywords: [title, group.section], run: { kind: 'go', to: item.to } });
    }
  }
  for (const screen of screens) {
    if (screen.kind !== 'form' || screen.mode !== 'create' || !canOpen(screen, permissions, context.settings)) continue;
    entries.push({ id: `go:${screen.route}`, label: createLabel(screen.title), hint: 'Create', keywords: [screen.title, 'add'], run: { kind: 'go', to: screen.route } });
  }
  const approvals = screens.find((s) => s.id === APPROVALS_SCREEN_ID);
  if (approvals && canOpen(approvals, permissions, context.settings)) {
    entries.push({
      id: 'approveNext',
      label: 'Approve next',
      hint: 'Action',
      keywords: ['oldest pending change request', 'decide', 'approvals', 'reject'],
      run: { kind: 'approveNext', to: approvals.route },
    });
  }
  if (viewableFindServices(permissions).length > 0) {
    entries.push({ id: 'find', label: FIND_LABEL, hint: 'Action', keywords: ['search', 'trace', 'ID', 'UID', 'lookup'], run: { kind: 'find' } });
  }
  return entries;
}

/** Lower case, without accents, the words apart. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether the letters of `needle` come in `hay` in order (not necessarily together). */
function isSubsequence(needle: string, hay: string): boolean {
  let at = 0;
  for (const ch of hay) if (ch === needle[at]) at++;
  return at === needle.length;
}

/**
 * How well a text matches an entry; 0 for not at all. Higher is better:
 * 100 the label itself, 80 the label starts with it, 60 each typed word starts a word of the label,
 * 40 each typed word starts a word of the label or keywords, 30 the label contains it,
 * 10 its letters come in the label in order.
 */
export function matchScore(entry: Pick<PaletteEntry, 'label' | 'keywords'>, query: string): number {
  const typed = words(query);
  if (typed.length === 0) return 1;
  const label = words(entry.label);
  const joinedQuery = typed.join(' ');
  const joinedLabel = label.join(' ');
  if (joinedLabel === joinedQuery) return 100;
  if (joinedLabel.startsWith(joinedQuery)) return 80;
  const startsAWord = (pool: readonly string[]) => typed.every((t) => pool.some((w) => w.startsWith(t)));
  if (startsAWord(label)) return 60;
  if (startsAWord([...label, ...entry.keywords.flatMap(words)])) return 40;
  if (joinedLabel.includes(joinedQuery)) return 30;
  if (isSubsequence(typed.join(''), label.join(''))) return 10;
  return 0;
}

/** Below every match by words or in the label, above a match by scattered letters. */
const FIND_VALUE_SCORE = 20;

/** Whether the top-bar search takes this text as a trace, ID or UID (the call's own rule). */
export function isFindValue(text: string): boolean {
  return findBody.shape.value.safeParse(text).success;
}

/**
 * The entries a typed text shows, best first (ties keep the entries' order). An empty text shows
 * them all. A text the top-bar search takes as a trace, ID or UID also offers "Find transaction" with
 * that value: first when nothing else matches it by its words, so a trace typed and Enter looks it up.
 */
export function filterEntries(entries: readonly PaletteEntry[], query: string): PaletteEntry[] {
  const text = query.trim();
  if (!text) return [...entries];
  const scored: { entry: PaletteEntry; score: number; at: number }[] = [];
  entries.forEach((entry, at) => {
    let score = matchScore(entry, text);
    let shown = entry;
    // the entry's own words ("find", "trace") keep it as it is; any other value is what to look up
    if (entry.run.kind === 'find' && score < 40 && isFindValue(text)) {
      shown = { ...entry, label: `Find transaction “${text}”`, run: { kind: 'find', value: text } };
      score = Math.max(score, FIND_VALUE_SCORE);
    }
    if (score > 0) scored.push({ entry: shown, score, at });
  });
  return scored.sort((a, b) => b.score - a.score || a.at - b.at).map((s) => s.entry);
}
