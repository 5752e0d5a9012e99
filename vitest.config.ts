import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@screens': fileURLToPath(new URL('./screens', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['tests/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
    // the demo seeder and the servers the tests start read days in the test machine's own zone (the
    // older tests write their days in it); tests/api/businessTime.test.ts runs the server in another
    env: { BUSINESS_TIME_ZONE: process.env.BUSINESS_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone },
  },
});
