// The entry of an export job's formatting thread (./formatThread.ts): its TypeScript is loaded through
// tsx's scoped loader, so the thread starts both in the server (run by tsx) and under the test runner.
import { tsImport } from 'tsx/esm/api';

await tsImport('./formatThread.ts', import.meta.url);
