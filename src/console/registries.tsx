/**
 * The console's registries of hand-written parts, typed at the entry: src/main.tsx composes the maps
 * (src/custom/) and passes them into the runtime (`buildRouter`), which hands them down by context. The
 * keys are the names of src/definitions/registries.ts, so a definition naming a component or modal that
 * no map holds does not compile, and the runtime imports nothing from src/custom/.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { CustomComponentName, RowModalName } from '../definitions/registries';

/** What a row modal receives: the row it was opened on, and how to close it and reload the list. */
export interface RowModalProps {
  row: Record<string, unknown>;
  close: () => void;
  reload: () => void;
}

export interface Registries {
  /** The hand-written screens, by `CustomScreen.component`. */
  readonly customComponents: Readonly<Record<CustomComponentName, ComponentType<Record<string, never>>>>;
  /** The row modals, by a row action's `run.modal`. */
  readonly rowModals: Readonly<Record<RowModalName, ComponentType<RowModalProps>>>;
}

const RegistriesContext = createContext<Registries | null>(null);
export const RegistriesProvider = RegistriesContext.Provider;

/** The registries the entry passed in (a component rendered outside the router has none: an error, not a silent blank). */
export function useRegistries(): Registries {
  const registries = useContext(RegistriesContext);
  if (!registries) throw new Error('useRegistries: no RegistriesProvider above this component (buildRouter provides one)');
  return registries;
}
