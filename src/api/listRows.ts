/**
 * The compact form of the transaction list replies: a client that sends `x-list-rows: arrays` with a
 * list call gets, instead of `data.filteredList`, the row schema's keys once (`filteredListKeys`) and
 * each row as an array of its values in that order (`filteredListRows`, one row per line); the reply
 * carries the same header. A client that does not send it gets the documented reply, unchanged.
 * Written by src/server/areas/transactions.ts, read by src/console/compactRows.ts.
 */
export const LIST_ROWS_HEADER = 'x-list-rows';
export const LIST_ROWS_ARRAYS = 'arrays';
