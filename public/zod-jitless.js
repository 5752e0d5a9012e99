// Runs before the console's modules (a classic script runs before deferred module scripts). The
// Content-Security-Policy allows no eval, so zod must never probe for it: its object schemas decide
// at construction time whether to compile a fast parser with Function(''), and a shared chunk builds
// schemas before src/zodConfig.ts can run. zod reads this global as its configuration.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
