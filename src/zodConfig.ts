/**
 * Imported first by the console's entry (src/main.tsx). The CSP allows no eval, so zod must not probe
 * for it (the probe would be refused, and reported as a violation). The built console sets the same
 * configuration earlier still, in public/zod-jitless.js (loaded by index.html before any module),
 * because a shared chunk can build schemas before this module runs.
 */
import { z } from 'zod';

z.config({ jitless: true });
