/** The exports' pure formatting lives in src/domain/exportFormat.ts (the server's export jobs use it too). */
export * from '../../domain/exportFormat';
