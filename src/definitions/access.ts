/** Who may open a screen, and which menu entries a user sees. Pure, shared by router, sidebar and checks. */
import type { AnyScreen, MenuSection, MenuSectionDef } from './definitions';
import { SETTINGS_OFF, type ServerSettings } from '../domain/approvals';
import { hasAnyPermission, isSuperUser } from '../domain/permissions';

/** Whether these permissions open the screen, with the server's settings (every setting off unless given). */
export function canOpen(screen: Pick<AnyScreen, 'access'>, permissions: readonly string[], settings: ServerSettings = SETTINGS_OFF): boolean {
  const a = screen.access;
  if ('rule' in a) return a.rule(permissions);
  return hasAnyPermission(permissions, a.anyOf) || (a.withSetting !== undefined && settings[a.withSetting.setting] && hasAnyPermission(permissions, a.withSetting.anyOf));
}

export interface MenuItem {
  label: string;
  to: string;
  /** The entry shows a count per area from this call (MenuEntry.counts). */
  counts?: NonNullable<NonNullable<AnyScreen['menu']>['counts']>;
}
export interface MenuGroup {
  section: MenuSection;
  items: MenuItem[];
}

/**
 * The sidebar for a user: entries they may open, in order, grouped by the sections of `sections` (in
 * their order; a section with `shownWith` only for a user holding one of them). `ownProvider` false
 * (the user has no linked IPG provider) hides the entries that show the user's own provider; `settings`
 * (the server's, default every setting off) decides the entries that need a setting.
 */
export function menuFor(
  screens: readonly AnyScreen[],
  sections: readonly MenuSectionDef[],
  permissions: readonly string[],
  { ownProvider, settings = SETTINGS_OFF }: { ownProvider?: boolean; settings?: ServerSettings } = {},
): MenuGroup[] {
  const groups: MenuGroup[] = [];
  for (const { section, shownWith } of sections) {
    if (shownWith && !hasAnyPermission(permissions, shownWith)) continue;
    const items = screens
      .filter((s) => s.menu?.section === section && canOpen(s, permissions, settings) && !(s.menu.hiddenFromSuper && isSuperUser(permissions)) && !(s.menu.needsOwnProvider && ownProvider === false))
      .sort((a, b) => a.menu!.order - b.menu!.order)
      .map((s) => ({ label: s.menu!.label, to: s.route.replace(/\/\$\w+$/, ''), ...(s.menu!.counts ? { counts: s.menu!.counts } : {}) }));
    if (items.length) groups.push({ section, items });
  }
  return groups;
}
