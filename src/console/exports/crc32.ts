/** The CRC-32 lives in src/domain/crc32.ts (the server's export jobs use it too). */
export * from '../../domain/crc32';
