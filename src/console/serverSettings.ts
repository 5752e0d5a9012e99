/**
 * The server settings that turn parts of the console on (src/domain/approvals.ts ServerSettings),
 * learnt from the same `config` call as the business time zone (src/console/businessTime.ts) once
 * signed in. Every setting is off until the server has said; the shell shows no page before then.
 */
import { useSyncExternalStore } from 'react';
import { SETTINGS_OFF, type ServerSettings } from '../domain/approvals';

let settings: ServerSettings = SETTINGS_OFF;
const listeners = new Set<() => void>();

/** The settings as the `config` reply states them. */
export function settingsFromConfig(config: { moneyActionApprovalAboveUsd: number | null }): ServerSettings {
  return { moneyActionApproval: config.moneyActionApprovalAboveUsd !== null };
}

export function serverSettings(): ServerSettings {
  return settings;
}

/** Sets the settings (the server's answer; tests). */
export function setServerSettings(value: ServerSettings): void {
  if ((Object.keys(value) as (keyof ServerSettings)[]).every((k) => value[k] === settings[k])) return;
  settings = value;
  for (const l of listeners) l();
}

/** The settings, re-rendering when the server's answer changes them (React). */
export function useServerSettings(): ServerSettings {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => settings,
    () => settings,
  );
}
