/**
 * The names a definition may use for the console's hand-written parts. The console's entry
 * (src/main.tsx) passes maps keyed by exactly these names into the runtime (`Registries` of
 * src/console/registries.tsx), so a definition naming a component or modal the map lacks, or a map
 * missing a name, is a compile error. Add a name here and the compiler asks for the map entry.
 */

/** The hand-written screens (src/custom/), by the name a `CustomScreen` gives as `component`. */
export const customComponentNames = ['Login', 'ResetPassword', 'Dashboard', 'AuditDashboard', 'ProviderCurrencies', 'Approvals', 'MyRequests'] as const;
export type CustomComponentName = (typeof customComponentNames)[number];

/** The row modals, by the name a row action's `run: { kind: 'modal', modal }` gives. */
export const rowModalNames = ['changePassword', 'kycReview'] as const;
export type RowModalName = (typeof rowModalNames)[number];
