/**
 * Uploaded images on the wire (bank logos, advertisement images): a new image is its base64 text
 * without a `data:` prefix; an unchanged image on edit is sent back as the stored path it was read
 * with (`images/...`). Pure, shared by the form (client-side check) and the request schema (server).
 * An upload's width and height are read from its header (image-size's PNG and JPEG readers: no pixel
 * is decoded) and must fit the pixel budget (src/domain/imageBudget.ts).
 */
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { z } from 'zod';
import { pixelBudgetProblem } from '../domain/imageBudget';

export type ImageFormat = 'png' | 'jpeg';

/** A stored image's path as records hold it and `GET /<path>` serves it. */
export const IMAGE_PATH = /^images\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.(?:png|jpg)$/;

export function isImagePath(value: string): boolean {
  return IMAGE_PATH.test(value);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 (no prefix, no whitespace) to bytes; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length === 0 || !BASE64.test(text)) return null;
  try {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format the bytes' signature says: a PNG with its IHDR header and a non-empty size, or a JPEG (SOI marker). */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 33 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    const ihdr = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
    const width = ((bytes[16] << 24) | (bytes[17] << 16) | (bytes[18] << 8) | bytes[19]) >>> 0;
    const height = ((bytes[20] << 24) | (bytes[21] << 16) | (bytes[22] << 8) | bytes[23]) >>> 0;
    return ihdr === 'IHDR' && width > 0 && height > 0 ? 'png' : null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

export const contentTypeOf: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg' };
export const extensionOf: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg' };

export interface ImageRule {
  readonly formats: readonly ImageFormat[];
  /** The decoded image must be smaller than this many bytes. */
  readonly maxBytes: number;
}

/** Bank logos: a PNG or JPEG under 100 KB (spec 002 §5, §9). */
export const logoRule: ImageRule = { formats: ['png', 'jpeg'], maxBytes: 100 * 1024 };
/** Advertisement images: base64 PNG (spec 002 §7, §9); the form converts any picture to PNG and scales it to fit. */
export const advertisementImageRule: ImageRule = { formats: ['png'], maxBytes: 1024 * 1024 };

export type ImageValue = { kind: 'path'; path: string } | { kind: 'upload'; bytes: Uint8Array; format: ImageFormat; width: number; height: number };

/** Width and height from the image's header (PNG IHDR, JPEG start-of-frame), or null when the header does not say. */
export function imageDimensions(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  try {
    const reader = format === 'png' ? PNG : JPG;
    if (!reader.validate(bytes)) return null;
    const { width, height } = reader.calculate(bytes);
    return Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * What an image value is: a stored path, a valid upload under the rule (its size read from its
 * header), or null (invalid: not base64, too many bytes, another format, no readable size). An upload
 * over the pixel budget is still an upload here: `pixelProblemOf` says why it is refused.
 */
export function readImageValue(value: string, rule: ImageRule): ImageValue | null {
  if (isImagePath(value)) return { kind: 'path', path: value };
  if (value.length > Math.ceil(rule.maxBytes / 3) * 4) return null;
  const bytes = decodeBase64(value);
  if (!bytes || bytes.length >= rule.maxBytes) return null;
  const format = imageFormatOf(bytes);
  if (!format || !rule.formats.includes(format)) return null;
  const size = imageDimensions(bytes, format);
  return size ? { kind: 'upload', bytes, format, ...size } : null;
}

/** Why an image value is refused for its pixel count (the budget's message), or null (within it, a path, or invalid for another reason). */
export function pixelProblemOf(value: unknown, rule: ImageRule): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const image = readImageValue(value, rule);
  return image?.kind === 'upload' ? pixelBudgetProblem(image) : null;
}

/** The refinement every image field carries: 400 naming the field, with the size and the budget. */
export function withinPixelBudget(rule: ImageRule) {
  return [(v: string) => pixelProblemOf(v, rule) === null, { error: (issue: { input: unknown }) => pixelProblemOf(issue.input, rule) ?? undefined }] as const;
}

/** The schema of an image field: required, a stored path or a valid upload under the rule, within the pixel budget. */
/** A 2x2 PNG as the calls take it (base64, no prefix): the published document's example of an image field. */
export const EXAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR42mPg9lv0H4QZYAwAQNoH6f5j6gkAAAAASUVORK5CYII=';

/** What the published document says of an image field under a rule: its formats and size as base64 (or the stored path an edit sends back), with an example. */
export function imageFieldFacts(rule: ImageRule) {
  return {
    contentEncoding: 'base64',
    description: `A ${rule.formats.map((f) => f.toUpperCase()).join(' or ')} image under ${rule.maxBytes / 1024} KB, base64 without a data: prefix, or the stored path of the current image.`,
    examples: [EXAMPLE_PNG],
  };
}

export function imageField(rule: ImageRule, messages: { required: string; invalid: string }) {
  return z
    .string()
    .min(1, messages.required)
    .refine((v) => v.length === 0 || readImageValue(v, rule) !== null, messages.invalid)
    .refine(...withinPixelBudget(rule))
    .meta(imageFieldFacts(rule));
}
