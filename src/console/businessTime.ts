/**
 * The business time zone in the console (docs/business-time.md): learnt from the server once
 * signed in (`config`), then used for the filters' default ranges, the Void/Refund button's "today"
 * (the same domain predicate the server runs) and every displayed time, so the browser's own zone
 * decides nothing. Until the server has answered the shell shows no page (a page drawn in another zone
 * would show other days).
 */
import { useSyncExternalStore } from 'react';
import { consoleConfig } from '../api/config';
import { DEFAULT_BUSINESS_TIME_ZONE, isValidTimeZone } from '../domain/businessTime';
import { callApi } from './request';
import { setServerSettings, settingsFromConfig } from './serverSettings';

let zone: string | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** The business time zone; the default zone until the server has said (pure helpers and tests). */
export function businessTimeZone(): string {
  return zone ?? DEFAULT_BUSINESS_TIME_ZONE;
}

/** Sets the zone (the server's answer; tests). */
export function setBusinessTimeZone(value: string): void {
  if (!isValidTimeZone(value) || value === zone) return;
  zone = value;
  for (const l of listeners) l();
}

/** Asks the server once (again after a failure); the same reply brings the server settings (src/console/serverSettings.ts). */
export function loadBusinessTimeZone(): Promise<void> {
  loading ??= callApi(consoleConfig, {}).then(
    (r) => {
      if (r.ok) {
        setServerSettings(settingsFromConfig(r.data));
        setBusinessTimeZone(r.data.businessTimeZone);
      } else loading = null;
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/** The zone once the server has said it, else null (React). */
export function useBusinessTimeZone(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => zone,
    () => zone,
  );
}
