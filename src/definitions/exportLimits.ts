/** Above this many rows a PDF stops being readable (hundreds of pages): the console offers Excel instead. */
export const PDF_MAX_ROWS = 20_000;
