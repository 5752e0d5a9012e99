/**
 * The pixel budget of uploaded images (bank and provider logos, advertisement images): a picture's
 * size is read from its header, before it is decoded or stored, and one that would need more memory
 * to decode than any logo or banner needs (a decompression bomb: a small file claiming 50,000 x 50,000
 * pixels) is refused. The console checks it before uploading and the server again; both say this.
 */
export const MAX_IMAGE_SIDE = 4096;
/** 16 megapixels (16 x 2^20, the area of 4096 x 4096): kept as its own limit should the side limit grow. */
export const MAX_IMAGE_PIXELS = 16 * 1024 * 1024;

export const imageBudgetMessage = (width: number, height: number) => `The image is ${width} x ${height} pixels; at most ${MAX_IMAGE_SIDE} x ${MAX_IMAGE_SIDE} and 16 megapixels are accepted`;

/** Why an image of this size is refused, or null when it is within the budget. */
export function pixelBudgetProblem(size: { width: number; height: number }): string | null {
  const { width, height } = size;
  return width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS ? imageBudgetMessage(width, height) : null;
}
