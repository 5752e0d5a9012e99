/** Who may open a screen, and which menu entries a user sees. Pure, shared by router, sidebar and checks. */
import type { AnyScreen, MenuSection } from './definitions';
import { SETTINGS_OFF, type ServerSettings } from '../domain/approvals';
import { hasAnyPermission, isSuperUser, type Permission } from '../domain/permissions';

/** Whether these permissions open the screen, with the server's settings (every setting off unless given). */
export function canOpen(screen: Pick<AnyScreen, 'access'>, permissions: readonly string[], settings: ServerSettings = SETTINGS_OFF): boolean {
  const a = screen.access;
  if ('rule' in a) return a.rule(permissions);
  return hasAnyPermission(permissions, a.anyOf) || (a.withSetting !== undefined && settings[a.withSetting.setting] && hasAnyPermission(permissions, a.withSetting.anyOf));
}

/** The Administrator and Reports menus show when the user holds any of these (spec 000 §2). */
export const sectionPermissions: Record<'Administrator' | 'Reports', readonly Permission[]> = {
  Administrator: ['user-view', 'role-view', 'bank-view', 'exchange-house-view', 'advertisement-view', 'app-user-view', 'auditor-app-user-view', 'ipg-provider-view', 'app-version-view'],
  Reports: ['bill-payment-report-view', 'send-money-report-view', 'thyaga-report-view', 'echannelling-report-view', 'track-remit-report-view'],
};

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
 * The sidebar for a user: entries they may open, in order, grouped by section. `ownProvider` false
 * (the user has no linked IPG provider) hides the entries that show the user's own provider; `settings`
 * (the server's, default every setting off) decides the entries that need a setting.
 */
export function menuFor(
  screens: readonly AnyScreen[],
  permissions: readonly string[],
  { ownProvider, settings = SETTINGS_OFF }: { ownProvider?: boolean; settings?: ServerSettings } = {},
): MenuGroup[] {
  const sections: MenuSection[] = ['Main', 'Administrator', 'Reports', 'Audit Reports'];
  const groups: MenuGroup[] = [];
  for (const section of sections) {
    if ((section === 'Administrator' || section === 'Reports') && !hasAnyPermission(permissions, sectionPermissions[section])) continue;
    const items = screens
      .filter((s) => s.menu?.section === section && canOpen(s, permissions, settings) && !(s.menu.hiddenFromSuper && isSuperUser(permissions)) && !(s.menu.needsOwnProvider && ownProvider === false))
      .sort((a, b) => a.menu!.order - b.menu!.order)
      .map((s) => ({ label: s.menu!.label, to: s.route.replace(/\/\$\w+$/, ''), ...(s.menu!.counts ? { counts: s.menu!.counts } : {}) }));
    if (items.length) groups.push({ section, items });
  }
  return groups;
}
