/**
 * Identity documents: passport/UID images and selfies are served only through the
 * short-lived signed URLs that the KYC list (kyc-view) and the app-user list (app-user-view,
 * auditor-app-user-view) hand out. Unsigned, tampered, expired or another path's URLs get 403;
 * logos and advertisement images stay public; a KYC decision sent with the signed values as
 * handed out is still taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycFieldOrder, setApproved, type KycData } from '../../src/domain/kyc';
import { IMAGE_URL_TTL_SECONDS } from '../../src/server/http/imageUrls';
import { appUserList } from '../../src/api/appUsers';
import { bankList } from '../../src/api/banks';
import { kycCreateRequest, kycList } from '../../src/api/kyc';
import { expectOk, expectStatus, startServer, type TestServer } from './harness';

let server: TestServer;
let checker: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  checker = await server.login('checker');
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

const IMAGE_KEYS = ['uidFrontImage', 'uidBackImage', 'userImage'] as const;
const SIGNED = /^(images\/(?:kyc|app-users)\/[^?]+)\?exp=(\d+)&sig=([A-Za-z0-9_-]+)$/;

async function kycRows(token = checker) {
  return (await server.ok(kycList, { fetchCount: 200 }, token)).data.kycList;
}

/** GET /<url> as the console does (a cache-busting t added to the URL's own query). */
const get = (url: string) => server.raw(`/${url}${url.includes('?') ? '&' : '?'}t=${Date.now()}`);

async function signedKycImages(): Promise<string[]> {
  const urls = (await kycRows()).flatMap((r) => IMAGE_KEYS.map((k) => r.currentData[k]?.value).filter((v): v is string => !!v));
  expect(urls.length).toBeGreaterThan(3);
  return urls;
}

describe('KYC document images', () => {
  it('the KYC list hands out signed, minutes-long URLs that serve the image', async () => {
    const urls = await signedKycImages();
    for (const url of urls.slice(0, 6)) {
      const m = SIGNED.exec(url);
      expect(m, url).not.toBeNull();
      const exp = Number(m![2]);
      const now = server.now().getTime() / 1000;
      expect(exp).toBeGreaterThan(now);
      expect(exp).toBeLessThanOrEqual(now + IMAGE_URL_TTL_SECONDS + 1);
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/(png|jpeg)$/);
      expect(res.headers.get('cache-control')).toContain('no-store');
    }
  });

  it("an unsigned path, a tampered signature, a moved expiry or another image's signature is refused with 403", async () => {
    const [first, second] = await signedKycImages();
    const [, path, exp, sig] = SIGNED.exec(first!)!;
    const [, otherPath] = SIGNED.exec(second!)!;
    expect(otherPath).not.toBe(path);
    const flipped = `${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BA' : 'AA'}`;
    const cases: [string, string][] = [
      ['no signature', path!],
      ['exp only', `${path}?exp=${exp}`],
      ['sig only', `${path}?sig=${sig}`],
      ['tampered signature', `${path}?exp=${exp}&sig=${flipped}`],
      ['expiry moved later with the same signature', `${path}?exp=${Number(exp) + 60}&sig=${sig}`],
      ['another image with this signature', `${otherPath}?exp=${exp}&sig=${sig}`],
      ['a signature of the wrong length', `${path}?exp=${exp}&sig=${sig!.slice(1)}`],
      ['a path that does not exist, with a made-up signature', `images/kyc/nobody/none.png?exp=${exp}&sig=${sig}`],
    ];
    for (const [what, url] of cases) {
      const res = await get(url);
      expect(res.status, what).toBe(403);
      expect(res.headers.get('content-type'), what).not.toMatch(/^image\//);
    }
  });

  it('a signed URL stops working once it has expired', async () => {
    const [url] = await signedKycImages();
    expect((await get(url!)).status).toBe(200);
    server.advanceClock((IMAGE_URL_TTL_SECONDS + 5) * 1000);
    try {
      expect((await get(url!)).status).toBe(403);
    } finally {
      server.resetClock();
    }
  });

  it("a decision sent back with the signed values as handed out is taken; one with another image's URL is refused", async () => {
    const rows = (await kycRows()).filter((r) => r.status === 'PENDING' && r.submittedData === null && r.currentData.uidFrontImage?.value && r.currentData.userImage?.value);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const approveAll = (d: KycData): KycData => kycFieldOrder.reduce((acc, k) => setApproved(acc, k, true), d);
    const swapped = approveAll(rows[0]!.currentData);
    const wrong = { ...swapped, uidFrontImage: { ...swapped.uidFrontImage!, value: rows[0]!.currentData.userImage!.value } };
    const refused = await server.call(kycCreateRequest, { userId: rows[0]!.kycId, kycData: wrong }, checker);
    expectStatus(refused, 400);
    expect(refused.data.message).toContain('kycData.uidFrontImage');
    const taken = await server.call(kycCreateRequest, { userId: rows[1]!.kycId, kycData: approveAll(rows[1]!.currentData) }, checker);
    expectOk(taken);
    expect(taken.data.status).toBe('APPROVED');
  });

  it('a user without kyc-view gets no KYC list (and so no URLs)', async () => {
    const auditor = await server.login('auditor');
    expectStatus(await server.call(kycList, { fetchCount: 10 }, auditor), 403);
  });
});

describe("app users' document images", () => {
  it('the app-user list hands out signed URLs that serve; the bare paths are refused', async () => {
    for (const token of [admin, await server.login('auditor')]) {
      const reply = await server.call(appUserList, { data: '', fetchCount: 50 }, token);
      expectOk(reply);
      const user = reply.data.appUsers.find((u) => u.selfie && u.uidFront)!;
      for (const url of [user.selfie!, user.uidFront!]) {
        const m = SIGNED.exec(url);
        expect(m, url).not.toBeNull();
        expect((await get(url)).status).toBe(200);
        expect((await get(m![1]!)).status).toBe(403);
      }
    }
  });

  it('logos and advertisement images stay public (no signature needed)', async () => {
    const banks = await server.call(bankList, {}, admin);
    expectOk(banks);
    const path = banks.data.banks.map((b) => b.logo).find((p): p is string => !!p)!;
    expect(path).not.toMatch(/\?/);
    expect((await get(path)).status).toBe(200);
    const ad = await server.db.one<{ path: string }>("SELECT path FROM images WHERE path LIKE 'images/advertisements/%' LIMIT 1");
    expect((await get(ad!.path)).status).toBe(200);
  });
});
