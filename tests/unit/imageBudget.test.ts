import { describe, expect, it } from 'vitest';
import { imageDimensions, logoRule, pixelProblemOf, readImageValue } from '../../src/api/imageUpload';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, pixelBudgetProblem } from '../../src/domain/imageBudget';
import { craftedJpeg, craftedPng } from '../fixtures/craftedImages';

describe('the pixel budget (4096 x 4096, 16 megapixels), read from the header', () => {
  it('reads the size a PNG or JPEG header claims, without decoding', () => {
    expect(imageDimensions(craftedPng(5000, 4000), 'png')).toEqual({ width: 5000, height: 4000 });
    expect(imageDimensions(craftedJpeg(60000, 50000), 'jpeg')).toEqual({ width: 60000, height: 50000 });
    expect(imageDimensions(craftedPng(0xffffffff, 0xffffffff), 'png')).toEqual({ width: 0xffffffff, height: 0xffffffff });
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 'jpeg')).toBeNull();
  });

  it('accepts up to 4096 x 4096 and refuses a pixel more, with the size in the message', () => {
    expect(MAX_IMAGE_SIDE).toBe(4096);
    expect(MAX_IMAGE_PIXELS).toBe(4096 * 4096);
    expect(pixelBudgetProblem({ width: 4096, height: 4096 })).toBeNull();
    expect(pixelBudgetProblem({ width: 1, height: 4096 })).toBeNull();
    expect(pixelBudgetProblem({ width: 4097, height: 1 })).toBe('The image is 4097 x 1 pixels; at most 4096 x 4096 and 16 megapixels are accepted');
    expect(pixelBudgetProblem({ width: 5000, height: 4000 })).toBe('The image is 5000 x 4000 pixels; at most 4096 x 4096 and 16 megapixels are accepted');
  });

  it('an upload value over the budget is named by pixelProblemOf; a JPEG without a readable size is invalid', () => {
    const bomb = craftedJpeg(60000, 60000).toString('base64');
    expect(readImageValue(bomb, logoRule)).toMatchObject({ kind: 'upload', width: 60000, height: 60000 });
    expect(pixelProblemOf(bomb, logoRule)).toMatch(/^The image is 60000 x 60000 pixels/);
    expect(pixelProblemOf(craftedPng(300, 200).toString('base64'), logoRule)).toBeNull();
    expect(pixelProblemOf('images/banks/x-0123.png', logoRule)).toBeNull();
    expect(readImageValue(Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64'), logoRule)).toBeNull();
  });
});
