/**
 * The business time zone in the console (docs/business-time.md): learnt from the server once
 * signed in (`config`), then used for the filters' default ranges, the Void/Refund button's "today"
 * (the same domain predicate the server runs) and every displayed time, so the browser's own zone
 * decides nothing. Until the server has answered the shell shows no page (a page drawn in another zone
 * would show other days).
 */
import { useSyncExternalStore } from 'react';
import { consoleConfig } from '../api/config';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE, isValidTimeZone, nextDay, startOfBusinessDay } from '../domain/businessTime';
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

// ---- the business day, kept current -----------------------------------------------------------

/** The longest one wait of the day clock lasts: it checks again at least this often (a computer asleep). */
const DAY_CHECK_MAX_MS = 10 * 60_000;

/** Milliseconds from `now` to the next midnight of the business zone (the start of its next day). */
export function msToNextBusinessMidnight(now: Date, zone: string): number {
  return startOfBusinessDay(nextDay(businessDay(now, zone)), zone).getTime() - now.getTime();
}

const dayListeners = new Set<() => void>();
let dayTimer: ReturnType<typeof setTimeout> | undefined;
let knownDay: string | undefined;

/** Waits for the next business midnight (at most DAY_CHECK_MAX_MS at a time), then tells the listeners if the day changed. */
function scheduleDayCheck(): void {
  clearTimeout(dayTimer);
  dayTimer = undefined;
  if (dayListeners.size === 0) return;
  const now = new Date();
  const zone = businessTimeZone();
  const day = businessDay(now, zone);
  if (knownDay !== undefined && day !== knownDay) for (const l of dayListeners) l();
  knownDay = day;
  // a little past midnight, so that the day read then is the new one
  dayTimer = setTimeout(scheduleDayCheck, Math.min(DAY_CHECK_MAX_MS, msToNextBusinessMidnight(now, zone) + 50));
}

/**
 * Calls `listener` when the business day changes (at the business zone's midnight, or when the zone
 * changes); one timer for every subscriber. Returns the unsubscribe.
 */
export function subscribeBusinessDay(listener: () => void): () => void {
  dayListeners.add(listener);
  listeners.add(listener);
  if (dayListeners.size === 1) {
    knownDay = undefined;
    scheduleDayCheck();
  }
  return () => {
    dayListeners.delete(listener);
    listeners.delete(listener);
    if (dayListeners.size === 0) scheduleDayCheck();
  };
}

/** Today in the business zone. */
export function currentBusinessDay(): string {
  return businessDay(new Date(), businessTimeZone());
}

/**
 * Today in the business zone (React): the component draws again at the business zone's midnight, so
 * what depends on "today" (the Void or Refund button of a row) follows the day without a reload.
 */
export function useBusinessDay(): string {
  return useSyncExternalStore(subscribeBusinessDay, currentBusinessDay, currentBusinessDay);
}
