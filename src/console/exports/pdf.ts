/** The PDF of an export lives in src/domain/exportPdf.ts (the server's export jobs draw the same file). */
export * from '../../domain/exportPdf';
