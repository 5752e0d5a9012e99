/**
 * The business day, kept current in the console: what depends on "today" in the business time zone
 * (a send-money row's Void, which becomes Refund once the card payment's day is over) draws again at
 * the zone's midnight without a reload. Loaded with the list views, not with the shell.
 */
import { useSyncExternalStore } from 'react';
import { businessDay, nextDay, startOfBusinessDay } from '../domain/businessTime';
import { businessTimeZone } from './businessTime';
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
 * Calls `listener` when the business day changes (at the business zone's midnight); one timer for
 * every subscriber. Returns the unsubscribe.
 */
export function subscribeBusinessDay(listener: () => void): () => void {
  dayListeners.add(listener);
  if (dayListeners.size === 1) {
    knownDay = undefined;
    scheduleDayCheck();
  }
  return () => {
    dayListeners.delete(listener);
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
