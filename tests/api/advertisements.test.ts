/** Advertisements through HTTP as maker, checker and users without the permission (spec 002 §2, §5, §7, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { bigPngBase64, counts, fetchImage, JPEG_BASE64, pendingIn, pngBase64, requestStatus, TEXT_BASE64 } from './masterDataHelpers';

let server: TestServer;
let maker: string;
let checker: string;
let auditor: string;

beforeAll(async () => {
  server = await startServer();
  [maker, checker, auditor] = await Promise.all([server.login('maker'), server.login('checker'), server.login('auditor')]);
});
afterAll(async () => {
  await server?.close();
});

const newAd = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vesak Remittance Offer',
  countries: ['AE', 'QA'],
  valid_from: '2027-05-01T00:00:01',
  valid_to: '2027-05-31T23:59:59',
  images: [
    { image: pngBase64(20, 30, [10, 80, 160]), link: 'https://www.remitops.lk/offers/vesak' },
    { image: pngBase64(20, 30, [200, 120, 0]), link: 'https://www.remitops.lk/offers/vesak?slide=2' },
  ],
  disabled: 0,
  ...overrides,
});
const stored = () => counts(server, ['advertisements', 'change_requests', 'images']);
const adByTitle = async (title: string) => (await server.call('advertisement/list', {}, checker)).data.advertisements.find((a: { title: string }) => a.title === title);

describe('advertisement/list and initial data', () => {
  it('lists the advertisements with countries, validity and images', async () => {
    const reply = await server.call('advertisement/list', {}, checker);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.advertisements.length).toBeGreaterThanOrEqual(5);
    const ad = reply.data.advertisements[0];
    expect(ad.valid_from).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:01$/);
    expect(ad.valid_to).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59$/);
    expect(ad.images.length).toBeGreaterThan(0);
    expect((await fetchImage(server, ad.images[0].image)).status).toBe(200);
    expect(reply.data.advertisements.some((a: { countries: string[] }) => a.countries.includes('ALL'))).toBe(true);
  });

  it('offers ALL first, then the countries', async () => {
    const { countries } = (await server.call('advertisement/initial-create-data', {}, maker)).data;
    expect(countries[0]).toEqual({ code: 'ALL', name: 'All Countries' });
    expect(countries.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['AE', 'SA', 'QA', 'KW', 'JP', 'KR', 'IT']));
  });

  it('is refused (403) without the permissions', async () => {
    expect(await server.call('advertisement/list', {}, auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of advertisement-view' } });
    expect((await server.call('advertisement/create', newAd(), checker)).statusCode).toBe(403);
    expect((await server.call('advertisement/initial-create-data', {}, checker)).statusCode).toBe(403);
    expect((await server.call('advertisement/approve', { changeRequestID: 1, actionTaken: 'approve' }, maker)).statusCode).toBe(403);
  });
});

describe('an advertisement CREATE request', () => {
  it('is pending with its images stored, and approved by the checker it is created', async () => {
    const body = newAd();
    const reply = await server.call('advertisement/create', body, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'Advertisement sent for approval' } });
    expect(await adByTitle(body.title)).toBeUndefined();

    const request = pendingIn(await server.call('advertisement/list', {}, checker), reply.data.changeRequestId);
    expect(request).toMatchObject({ type: 'Advertisement', pendingAction: 'CREATE', originalRecord: null });
    expect(request.newRecord.countries).toEqual({ header: 'Countries', type: 'STRING_ARRAY', value: ['AE', 'QA'] });
    expect(request.newRecord.valid_from.value).toBe('2027-05-01');
    expect(request.newRecord.images.type).toBe('IMAGE_ARRAY');
    const images = request.newRecord.images.value as { image: string; link: string }[];
    expect(images).toHaveLength(2);
    expect(Buffer.from(await (await fetchImage(server, images[0].image)).arrayBuffer()).toString('base64')).toBe(body.images[0].image);
    expect(request.newRecord.links.value).toEqual(body.images.map((i) => i.link));

    expect(await server.call('advertisement/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'Advertisement approved successfully' },
    });
    expect(await adByTitle(body.title)).toMatchObject({
      countries: ['AE', 'QA'],
      valid_from: '2027-05-01T00:00:01',
      valid_to: '2027-05-31T23:59:59',
      images,
      status: 'Active',
      locked: 0,
    });
  });

  it('rejected is discarded with its images', async () => {
    const body = newAd({ title: 'Rejected Offer' });
    const id = (await server.call('advertisement/create', body, maker)).data.changeRequestId;
    const images = pendingIn(await server.call('advertisement/list', {}, checker), id).newRecord.images.value as { image: string }[];
    expect((await server.call('advertisement/approve', { changeRequestID: id, actionTaken: 'reject' }, checker)).data.message).toBe('Advertisement rejected successfully');
    expect(await requestStatus(server, id)).toBe('REJECTED');
    expect(await adByTitle(body.title)).toBeUndefined();
    for (const i of images) expect((await fetchImage(server, i.image)).status).toBe(404);
  });

  it('ALL stands for every country', async () => {
    expect((await server.call('advertisement/create', newAd({ title: 'For Everyone', countries: ['ALL'] }), maker)).statusCode).toBe(200);
  });
});

describe('an advertisement EDIT request', () => {
  it('keeps an unchanged image sent back as its path, adds a new one, locks the record and applies on approval', async () => {
    const { advertisements } = (await server.call('advertisement/list', {}, maker)).data;
    const target = advertisements.find((a: { title: string }) => a.title === 'Thyaga Gift Vouchers');
    const { advertisement } = (await server.call('advertisement/get-for-edit', { id: target.id }, maker)).data;
    const kept = advertisement.images[0];
    const body = {
      id: target.id,
      title: 'Thyaga Gift Vouchers for Avurudu',
      countries: ['ALL'],
      valid_from: advertisement.valid_from,
      valid_to: advertisement.valid_to,
      images: [kept, { image: pngBase64(30, 45, [0, 150, 90]), link: 'https://www.remitops.lk/thyaga/avurudu' }],
      disabled: 0,
    };
    const reply = await server.call('advertisement/edit', body, maker);
    expect(reply.data.message).toBe('Advertisement sent for approval');
    const request = pendingIn(await server.call('advertisement/list', {}, checker), reply.data.changeRequestId);
    expect(request.pendingAction).toBe('EDIT');
    expect(request.originalRecord!.title.value).toBe('Thyaga Gift Vouchers');
    const images = request.newRecord.images.value as { image: string; link: string }[];
    expect(images[0]).toEqual(kept);
    expect(images[1].image).not.toBe(body.images[1].image);
    expect(images[1].image).toMatch(/^images\/advertisements\//);

    expect(await server.call('advertisement/edit', body, maker)).toEqual({ statusCode: 409, data: { message: 'Advertisement is locked: a change request is already pending' } });
    expect((await server.call('advertisement/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect((await server.call('advertisement/get-for-edit', { id: target.id }, maker)).data.advertisement).toMatchObject({ title: body.title, images, locked: 0 });
  });

  it('refuses another advertisement’s image path (400) and an unknown advertisement (404)', async () => {
    const { advertisements } = (await server.call('advertisement/list', {}, maker)).data;
    const [a, b] = advertisements.filter((x: { locked: number }) => x.locked === 0);
    const before = await stored();
    const body = { id: a.id, title: a.title, countries: a.countries, valid_from: a.valid_from, valid_to: a.valid_to, images: [b.images[0]], disabled: 0 };
    expect(await server.call('advertisement/edit', body, maker)).toEqual({ statusCode: 400, data: { message: 'images.0.image: Uploaded image is not valid' } });
    expect(await stored()).toEqual(before);
    expect((await server.call('advertisement/edit', { ...body, id: 9999 }, maker)).statusCode).toBe(404);
  });
});

describe('bad inputs get a 4xx with the specification’s message and store nothing', () => {
  const link = 'https://www.remitops.lk/x';
  it.each([
    ['empty countries', { countries: [] }, 400, 'countries: Please select at least one country'],
    ['a country twice', { countries: ['AE', 'AE'] }, 400, 'countries.1: A country cannot be added twice'],
    ['ALL with others', { countries: ['ALL', 'AE'] }, 400, 'countries: ALL already covers every country'],
    ['an unknown country', { countries: ['ZZ'] }, 422, 'Unknown country: ZZ'],
    ['no images', { images: [] }, 400, 'images: Please select at least one image'],
    ['six images', { images: Array.from({ length: 6 }, () => ({ image: pngBase64(), link })) }, 400, 'images: at most 5 images'],
    ['a JPEG (images are PNG)', { images: [{ image: JPEG_BASE64, link }] }, 400, 'images.0.image: Uploaded image is not valid'],
    ['text as an image', { images: [{ image: TEXT_BASE64, link }] }, 400, 'images.0.image: Uploaded image is not valid'],
    ['an image of 1 MB or more', { images: [{ image: bigPngBase64(1024 * 1024), link }] }, 400, 'images.0.image: Uploaded image is not valid'],
    ['a stored path on create', { images: [{ image: 'images/advertisements/not-mine-0000.png', link }] }, 400, 'images.0.image: Uploaded image is not valid'],
    ['an image without a valid link', { images: [{ image: pngBase64(), link: 'www.remitops' }] }, 400, 'images.0.link: Please enter a valid URL'],
    ['a link over 512 characters', { images: [{ image: pngBase64(), link: `https://www.remitops.lk/${'a'.repeat(500)}` }] }, 400, 'images.0.link: Please enter a valid URL'],
    ['To before From', { valid_from: '2027-05-10T00:00:01', valid_to: '2027-05-09T23:59:59' }, 400, 'valid_to: Valid To cannot be before Valid From'],
    ['From without its start time', { valid_from: '2027-05-10T00:00:00' }, 400, 'valid_from: Please select Valid From'],
    ['a day that does not exist', { valid_to: '2027-02-30T23:59:59' }, 400, 'valid_to: Please select Valid To'],
    ['a one-letter title', { title: 'A' }, 400, 'title: Name can only have alphanumeric characters and should be at least 2 characters long'],
    ['a title with punctuation', { title: 'Offer!' }, 400, 'title: Name can only have alphanumeric characters and should be at least 2 characters long'],
  ])('%s', async (_what, change, status, message) => {
    const before = await stored();
    expect(await server.call('advertisement/create', newAd({ title: 'Bad Input Offer', ...change }), maker)).toEqual({ statusCode: status, data: { message } });
    expect(await stored()).toEqual(before);
  });
});
