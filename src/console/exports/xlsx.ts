/** The streaming .xlsx writer lives in src/domain/xlsx.ts (the server's export jobs use it too). */
export * from '../../domain/xlsx';
