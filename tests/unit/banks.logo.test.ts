/** Uploaded images on the wire: PNG or JPEG by their bytes, size limits, stored paths (spec 002 §5, §9). */
import { describe, expect, it } from 'vitest';
import { bankFormSchema } from '../../src/api/banks';
import { decodeBase64, imageFormatOf, isImagePath, logoRule, readImageValue } from '../../src/api/imageUpload';
import { Raster } from '../../src/server/seed/png';

const png = (w = 4, h = 4) => new Raster(w, h, [10, 20, 30]).png();
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

describe('image values', () => {
  it('recognises PNG and JPEG by their signatures, nothing else', () => {
    expect(imageFormatOf(png())).toBe('png');
    expect(imageFormatOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('jpeg');
    expect(imageFormatOf(new Uint8Array(Buffer.from('GIF89a........................................')))).toBeNull();
    expect(imageFormatOf(png().subarray(0, 20))).toBeNull();
  });

  it('decodes strict base64 only', () => {
    expect(decodeBase64('aGVsbG8=')).toEqual(new Uint8Array(Buffer.from('hello')));
    expect(decodeBase64('aGVsbG8')).toBeNull();
    expect(decodeBase64('data:image/png;base64,aGVsbG8=')).toBeNull();
    expect(decodeBase64('')).toBeNull();
  });

  it('a logo is a PNG or JPEG under 100 KB, or a stored path', () => {
    expect(readImageValue(b64(png()), logoRule)).toMatchObject({ kind: 'upload', format: 'png' });
    expect(readImageValue('images/banks/boc-0a1b.png', logoRule)).toEqual({ kind: 'path', path: 'images/banks/boc-0a1b.png' });
    const big = new Uint8Array(100 * 1024);
    big.set(png());
    expect(readImageValue(b64(big), logoRule)).toBeNull();
    expect(readImageValue(b64(big.subarray(0, 100 * 1024 - 1)), logoRule)).toMatchObject({ kind: 'upload' });
    expect(isImagePath('images/../secret.png')).toBe(false);
    expect(isImagePath('/images/banks/a.png')).toBe(false);
  });

  it('the bank form speaks the specification’s messages', () => {
    const messages = (v: Record<string, unknown>) => bankFormSchema.safeParse({ bank_code: 'ABC', bank_name: 'Abc Bank', logo: b64(png()), disabled: 0, ...v }).error?.issues.map((i) => i.message);
    expect(messages({})).toBeUndefined();
    expect(messages({ logo: '' })).toEqual(['Please upload an image']);
    expect(messages({ logo: 'bm90IGFuIGltYWdl' })).toEqual(['Uploaded image is invalid']);
    expect(messages({ bank_name: 'A&' })).toEqual(['Name can only have alphanumeric characters with &. and should be at least 3 characters long']);
    expect(messages({ bank_code: 'A B' })).toEqual(["Bank Code can only have alphanumeric characters with '_' and should be at least 3 characters long"]);
  });
});
