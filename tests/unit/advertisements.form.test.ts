/** The advertisement form: countries, dates, image slots, and the request it sends (spec 002 §5, §7, §9). */
import { describe, expect, it } from 'vitest';
import { advertisementCreateBody, advertisementFormSchema } from '../../src/api/advertisements';
import { advertisementBody, imageSlotsOf } from '../../screens/advertisements';
import { addTag } from '../../src/console/views/FormFields';
import { Raster } from '../../src/server/seed/png';

const image = new Raster(3, 3, [1, 2, 3]).png().toString('base64');
const form = (v: Record<string, unknown> = {}) => ({
  title: 'Poson Offer',
  countries: ['AE'],
  valid_from: '2027-06-01',
  valid_to: '2027-06-30',
  images: imageSlotsOf([{ image, link: 'https://www.remitops.lk/poson' }]),
  disabled: 0,
  ...v,
});
const issues = (v: Record<string, unknown>) => advertisementFormSchema.safeParse(form(v)).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('advertisement form rules', () => {
  it('accepts a complete form', () => expect(issues({})).toBeUndefined());
  it('needs a country and an image; each image a valid link', () => {
    expect(issues({ countries: [] })).toEqual(['countries: Please select at least one country']);
    expect(issues({ images: imageSlotsOf([]) })).toEqual(['images: Please select at least one image']);
    expect(issues({ images: imageSlotsOf([{ image, link: 'remitops' }]) })).toEqual(['images.0.link: Please enter a valid URL']);
    expect(
      issues({
        images: imageSlotsOf([
          { image: '', link: 'remitops' },
          { image, link: 'https://a.lk/x' },
        ]),
      }),
    ).toBeUndefined();
  });
  it('needs both dates, To not before From', () => {
    expect(issues({ valid_from: '', valid_to: '' })).toEqual(['valid_from: Please select Valid From', 'valid_to: Please select Valid To']);
    expect(issues({ valid_to: '2027-05-31' })).toEqual(['valid_to: Valid To cannot be before Valid From']);
  });
});

describe('the request', () => {
  it('sends the dates with 00:00:01 and 23:59:59, only the slots with an image, and passes the server’s schema', () => {
    const body = advertisementBody(form() as never);
    expect(body).toEqual({
      title: 'Poson Offer',
      countries: ['AE'],
      valid_from: '2027-06-01T00:00:01',
      valid_to: '2027-06-30T23:59:59',
      images: [{ image, link: 'https://www.remitops.lk/poson' }],
      disabled: 0,
    });
    expect(advertisementCreateBody.safeParse(body).success).toBe(true);
  });
  it('pads loaded images to five slots', () => {
    expect(imageSlotsOf([{ image: 'images/a/b.png', link: 'https://x.lk' }])).toHaveLength(5);
  });
});

describe('the tag picker', () => {
  it('adds a value once; ALL stands alone', () => {
    expect(addTag(['AE'], 'AE')).toEqual(['AE']);
    expect(addTag(['AE'], 'QA', 'ALL')).toEqual(['AE', 'QA']);
    expect(addTag(['AE', 'QA'], 'ALL', 'ALL')).toEqual(['ALL']);
    expect(addTag(['ALL'], 'KW', 'ALL')).toEqual(['KW']);
  });
});
