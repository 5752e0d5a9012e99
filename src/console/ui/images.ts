/**
 * Images in forms: reading a chosen file as the wire value (base64 without prefix), converting a
 * picture to PNG when a field asks for it, and the preview source of a value (a new upload or the
 * stored path it was loaded with).
 */
import { decodeBase64, imageDimensions, imageFormatOf, isImagePath } from '../../api/imageUpload';
import { pixelBudgetProblem } from '../../domain/imageBudget';
import type { ImageSpec } from '../../definitions/definitions';
import { imageUrl } from '../views/cells';

/** The MIME type of a base64 image, from its first bytes. */
export function base64MimeOf(value: string): 'image/png' | 'image/jpeg' | null {
  const head = decodeBase64(value.slice(0, 48));
  const format = head ? imageFormatOf(head) : null;
  return format === 'png' ? 'image/png' : format === 'jpeg' ? 'image/jpeg' : null;
}

/** Where the preview of an image value comes from: the stored path (cache-busted), the upload, or nothing. */
export function imageSource(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (isImagePath(value)) return imageUrl(value);
  const mime = base64MimeOf(value);
  return mime ? `data:${mime};base64,${value}` : null;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function loadPicture(file: Blob): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      resolve(null);
    };
    img.src = url;
  });
}

/** The picture as PNG base64, scaled to fit the box and, if needed, further until it is under maxBytes. */
async function asPng(file: Blob, spec: ImageSpec & { toPng: NonNullable<ImageSpec['toPng']> }): Promise<string | null> {
  const img = await loadPicture(file);
  if (!img || !img.naturalWidth || !img.naturalHeight) return null;
  let scale = Math.min(1, spec.toPng.maxWidth / img.naturalWidth, spec.toPng.maxHeight / img.naturalHeight);
  for (let attempt = 0; attempt < 4; attempt++, scale /= 1.6) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
    const g = canvas.getContext('2d');
    if (!g) return null;
    g.drawImage(img, 0, 0, canvas.width, canvas.height);
    const value = canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
    if ((value.length * 3) / 4 < spec.maxBytes) return value;
  }
  return null;
}

/** How much of a chosen file is read for its header (a JPEG's size can follow up to 64 KB of metadata). */
const HEADER_BYTES = 256 * 1024;

/** A chosen file as the wire value, or why it is refused (the message the field shows). */
export type ImageFileResult = { value: string } | { problem: string };

/**
 * A chosen file as the wire value (base64, no prefix), or why not. First its header: a PNG or JPEG
 * claiming more pixels than the budget is refused with the budget's message before the browser
 * decodes it (the server refuses it too). Then, with `toPng`, any picture the browser reads,
 * converted; else the file itself, whose bytes must be a PNG or JPEG the field accepts, under
 * maxBytes; otherwise the field's invalid message.
 */
export async function readImageFile(file: File, spec: ImageSpec): Promise<ImageFileResult> {
  const head = new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer());
  const headFormat = imageFormatOf(head);
  const size = headFormat ? imageDimensions(head, headFormat) : null;
  const tooLarge = size ? pixelBudgetProblem(size) : null;
  if (tooLarge) return { problem: tooLarge };
  const invalid = { problem: spec.invalidMessage };
  if (spec.toPng) {
    const value = await asPng(file, { ...spec, toPng: spec.toPng });
    return value === null ? invalid : { value };
  }
  if (file.size >= spec.maxBytes) return invalid;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = imageFormatOf(bytes);
  if (!format || !spec.formats.includes(format) || !imageDimensions(bytes, format)) return invalid;
  return { value: toBase64(bytes) };
}
