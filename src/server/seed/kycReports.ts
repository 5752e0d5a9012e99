/**
 * Demo data of KYC and reports: KYC submissions of app users (with document images drawn as PNG in
 * code; some re-submitted after a rejection), the reviewers' decisions (also in the activity log), and
 * a few thousand mobile app events over the last 30 days, today included, and the settlement history
 * (./settlementHistory.ts). Deterministic (seeded PRNG; image paths carry a random part), dates
 * relative to `now`. Runs after the app users and the transactions are seeded; if there are no app
 * users, it seeds a small set of its own so that the KYC screens have data.
 */
import { prng, type Rng } from './random';
import { randomBytes } from 'node:crypto';
import { format } from 'date-fns';
import type { Db } from '../db/db';
import type { AreaSeedContext } from './demo';
import { kycFieldOrder, kycFieldTitles, type KycField } from '../../domain/kyc';
import type { StoredKycField } from '../areas/kyc';
import { documentBack, documentFront, selfie, type Person } from './kycImages';
import { seedSettlementHistory } from './settlementHistory';

const DAY = 86_400_000;
/** At most this many KYC records (each has two or three document images). */
const KYC_RECORDS = 60;
/** About this many mobile app events in all. */
const MOBILE_EVENTS = 3000;
const MINUTE = 60_000;

type Rand = Rng;

interface AppUser {
  id: number;
  first_name: string;
  last_name: string;
  uid_type: string;
  uid: string;
  contact: string;
  email: string;
  country: string;
  country_name: string;
  dial_code: string;
  created_at: Date;
}

const CITIES: Record<string, readonly string[]> = {
  AE: ['Dubai', 'Abu Dhabi', 'Sharjah', 'Ajman'],
  SA: ['Riyadh', 'Jeddah', 'Dammam', 'Mecca'],
  QA: ['Doha', 'Al Wakrah', 'Al Rayyan'],
  KW: ['Kuwait City', 'Hawalli', 'Salmiya'],
  OM: ['Muscat', 'Salalah', 'Sohar'],
  BH: ['Manama', 'Muharraq', 'Riffa'],
  IT: ['Milan', 'Rome', 'Naples', 'Palermo'],
  JP: ['Tokyo', 'Osaka', 'Nagoya'],
  KR: ['Seoul', 'Busan', 'Incheon'],
  GB: ['London', 'Leicester', 'Birmingham'],
  AU: ['Melbourne', 'Sydney', 'Perth'],
  CA: ['Toronto', 'Mississauga', 'Vancouver'],
  US: ['New York', 'Los Angeles', 'Houston'],
  CY: ['Nicosia', 'Limassol', 'Larnaca'],
  IL: ['Tel Aviv', 'Haifa', 'Netanya'],
  MV: ['Male', 'Hulhumale', 'Addu City'],
  LK: ['Colombo', 'Kandy', 'Galle'],
};
const STREETS = ['Al Wasl Road', 'Corniche Street', 'King Fahd Road', 'Via Roma', 'Main Street', 'Station Road', 'Park Avenue', 'Sheikh Zayed Road', 'Hamdan Street', 'Salwa Road'];
const OCCUPATIONS = ['Driver', 'Nurse', 'Housemaid', 'Construction Worker', 'Accountant', 'Electrician', 'Chef', 'Security Officer', 'Sales Assistant', 'Engineer', 'Caregiver', 'Technician'];

const FIRST_NAMES = [
  'Nimal',
  'Kamala',
  'Sunil',
  'Dilani',
  'Ruwan',
  'Chamari',
  'Arjun',
  'Fathima',
  'Kasun',
  'Ishara',
  'Mahesh',
  'Priyanka',
  'Tharindu',
  'Sanduni',
  'Lahiru',
  'Nadeesha',
  'Roshan',
  'Anusha',
  'Mohamed',
  'Shanthi',
];
const LAST_NAMES = [
  'Perera',
  'Fernando',
  'Silva',
  'Jayasinghe',
  'Bandara',
  'Wickramasinghe',
  'Herath',
  'Dissanayake',
  'Senanayake',
  'Rajapaksa',
  'Gunawardena',
  'Karunaratne',
  'Rizwan',
  'Thevarajah',
  'Ekanayake',
];

/** A few app users of its own when none were seeded (the app-user seeder normally runs first). */
async function ensureAppUsers(db: Db, now: Date, rand: Rand): Promise<void> {
  if (await db.one('SELECT 1 FROM app_users LIMIT 1')) return;
  const corridors = ['AE', 'SA', 'QA', 'KW', 'OM', 'IT', 'JP', 'KR'];
  for (let i = 0; i < 60; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length];
    const last = LAST_NAMES[(i * 7) % LAST_NAMES.length];
    const passport = i % 3 === 0;
    const uid = passport ? `N${String(5_100_000 + i * 7_919).slice(0, 7)}` : `${1975 + (i % 25)}${String(10_000_000 + i * 104_729).slice(-8)}`.slice(0, 12);
    const created = new Date(now.getTime() - (5 + ((i * 37) % 300)) * DAY);
    await db.query(
      `INSERT INTO app_users (first_name, last_name, uid_type, uid, contact, email, country, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
      [first, last, passport ? 'PASSPORT' : 'NIC', uid, `7${String(10_000_000 + i * 48_611).slice(-8)}`, `${first}.${last}${i}@gmail.com`.toLowerCase(), corridors[i % corridors.length], created],
    );
  }
  void rand;
}

async function loadAppUsers(db: Db): Promise<AppUser[]> {
  return db.query<AppUser>(
    `SELECT u.id, u.first_name, u.last_name, u.uid_type, u.uid, u.contact, u.email, u.country, c.name AS country_name, c.dial_code, u.created_at
       FROM app_users u JOIN countries c ON c.code = u.country ORDER BY u.id`,
  );
}

const imageDirs = new Map<number, string>();
/** One unguessable folder per app user for their KYC images. */
function imageDirOf(appUserId: number): string {
  let dir = imageDirs.get(appUserId);
  if (!dir) {
    dir = randomBytes(12).toString('hex');
    imageDirs.set(appUserId, dir);
  }
  return dir;
}

function field(key: string, value: string | null, approved = false, reason = ''): KycField & { key: string } {
  return { key, title: kycFieldTitles[key] ?? key, value, approved, reason };
}

function dateOfBirth(rand: Rand): string {
  return format(new Date(Date.UTC(rand.int(1968, 2001), rand.int(0, 11), rand.int(1, 28))), 'yyyy-MM-dd');
}

type GroupName = 'personal' | 'contact' | 'uid' | 'address' | 'selfie';
const REJECTION_REASONS: Record<GroupName, readonly string[]> = {
  personal: ['Date of birth does not match the identity document', 'Name does not match the identity document'],
  contact: ['Phone number is not the number registered with the app', 'Phone number could not be verified by OTP'],
  uid: ['UID number does not match the document image', 'Document has expired', 'UID type does not match the document uploaded'],
  address: ['Address is incomplete: please add the street and building', 'Proof of address does not match the city given'],
  selfie: ['Selfie does not match the document photo', 'Selfie is blurred: please retake it in good light'],
};
const IMAGE_REASONS = ['Image is blurred', 'Part of the document is cut off', 'Glare covers the document number'];

interface Draft {
  fields: StoredKycField[];
  images: { path: string; bytes: Buffer }[];
}

/** A submission's fields and the images it references. */
function draftSubmission(u: AppUser, seq: number, rand: Rand, base: Draft | null, changed: ReadonlySet<GroupName>): Draft {
  const images: Draft['images'] = [];
  const prev = new Map((base?.fields ?? []).map((f) => [f.key, f]));
  const keep = (key: string) => prev.get(key)?.value ?? null;
  const city = rand.pick(CITIES[u.country] ?? ['Colombo']);
  const person: Person = {
    firstName: u.first_name,
    lastName: u.last_name,
    uidType: u.uid_type,
    uid: u.uid,
    dateOfBirth: keep('dateOfBirth') ?? dateOfBirth(rand),
    gender: keep('gender') ?? (rand.chance(0.55) ? 'Male' : 'Female'),
    address: '',
    look: u.id,
  };
  const addressLine1 = !base || changed.has('address') ? `${rand.int(1, 240)}, ${rand.pick(STREETS)}` : keep('addressLine1')!;
  const addressLine2 = !base || changed.has('address') ? (rand.chance(0.6) ? `Building ${rand.int(2, 60)}, Flat ${rand.int(101, 1804)}` : '') : (keep('addressLine2') ?? '');
  const cityValue = !base || changed.has('address') ? city : keep('city')!;
  person.address = `${addressLine1} ${addressLine2} ${cityValue} ${u.country_name}`;

  // image paths are served without a session (src/server/http/images.ts), so they carry a random part
  const dir = `images/kyc/${imageDirOf(u.id)}`;
  const passport = /passport/i.test(u.uid_type);
  let front = keep('uidFrontImage');
  let back = keep('uidBackImage');
  if (!base || changed.has('uid')) {
    front = `${dir}/s${seq}-uid-front.png`;
    images.push({ path: front, bytes: documentFront(person) });
    back = passport ? null : `${dir}/s${seq}-uid-back.png`;
    if (back) images.push({ path: back, bytes: documentBack(person) });
  }
  let selfiePath = keep('userImage');
  if (!base || changed.has('selfie')) {
    selfiePath = `${dir}/s${seq}-selfie.png`;
    images.push({ path: selfiePath, bytes: selfie({ ...person, look: u.id + seq }) });
  }
  const phone = !base || changed.has('contact') ? (base ? `7${String(rand.int(10_000_000, 99_999_999))}` : u.contact.replace(/^0/, '')) : keep('phoneNo')!;

  const values: Record<string, string | null> = {
    firstName: u.first_name,
    lastName: u.last_name,
    dateOfBirth: person.dateOfBirth,
    gender: person.gender,
    nationality: 'Sri Lankan',
    occupation: keep('occupation') ?? rand.pick(OCCUPATIONS),
    email: u.email,
    dialCode: u.dial_code,
    phoneNo: phone,
    uidType: u.uid_type,
    uid: u.uid,
    country: u.country_name,
    city: cityValue,
    addressLine1,
    addressLine2,
    uidFrontImage: front,
    uidBackImage: back,
    userImage: selfiePath,
  };
  // a re-submission carries the earlier approvals of the fields the user did not have to change
  const fields = kycFieldOrder.map((k) => {
    const wasApproved = base ? prev.get(k)?.approved === true : false;
    return field(k, values[k] ?? null, wasApproved);
  });
  return { fields, images };
}

function groupOfField(key: string): GroupName {
  if (key === 'dialCode' || key === 'phoneNo') return 'contact';
  if (['uidType', 'uid', 'uidFrontImage', 'uidBackImage'].includes(key)) return 'uid';
  if (['country', 'city', 'addressLine1', 'addressLine2'].includes(key)) return 'address';
  if (key === 'userImage') return 'selfie';
  return 'personal';
}

/** A reviewer's decision on a draft: the `rejected` groups rejected with reasons, the rest approved. */
function decideDraft(d: Draft, rejected: ReadonlySet<GroupName>, rand: Rand): StoredKycField[] {
  const groupReason = new Map<GroupName, string>();
  for (const g of rejected) groupReason.set(g, rand.pick(REJECTION_REASONS[g]));
  const personalRejected = rejected.has('personal') ? rand.pick(['dateOfBirth', 'firstName', 'lastName']) : null;
  return d.fields.map((f) => {
    const g = groupOfField(f.key);
    const isRejected = g === 'personal' ? f.key === personalRejected : rejected.has(g);
    if (!isRejected) return { ...f, approved: true, reason: '' };
    const reason = f.key === 'uidFrontImage' || f.key === 'uidBackImage' ? rand.pick(IMAGE_REASONS) : groupReason.get(g)!;
    return { ...f, approved: false, reason };
  });
}

const REVIEWERS = ['checker', 'kumari_fernando', 'dilani_w', 'chamari_silva', 'priyanka_e'];

async function insertImages(db: Db, images: Draft['images'], at: Date) {
  for (const img of images) {
    await db.query('INSERT INTO images (path, content_type, bytes, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (path) DO NOTHING', [img.path, 'image/png', img.bytes, at]);
  }
}

async function logDecision(db: Db, reviewer: string, at: Date, kycId: number, u: AppUser, seq: number, fields: StoredKycField[]) {
  const rejected = fields.filter((f) => !f.approved);
  const status = rejected.length ? 'REJECTED' : 'APPROVED';
  await db.query(`INSERT INTO activity_logs (level, type, username, description, before, after, created_at) VALUES ('INFO', $1, $2, $3, NULL, $4, $5)`, [
    status === 'APPROVED' ? 'KYC_APPROVED' : 'KYC_REJECTED',
    reviewer,
    `KYC ${kycId} of ${u.first_name} ${u.last_name} (UID ${u.uid}), submission ${seq}: ` +
      (status === 'APPROVED' ? 'approved' : `rejected (${rejected.map((f) => `${f.title}: ${f.reason}`).join('; ')})`),
    { kycId, submission: seq, status, rejected: Object.fromEntries(rejected.map((f) => [f.key, f.reason])) },
    at,
  ]);
}

/**
 * KYC records for about three in four app users: first submissions waiting for review, approved and
 * rejected ones, and re-submissions after a rejection (pending or approved).
 */
async function seedKyc(db: Db, now: Date, users: AppUser[], rand: Rand): Promise<Map<number, Date>> {
  const submittedAt = new Map<number, Date>();
  // about three in four app users, at most KYC_RECORDS of them, spread over the list
  const step = Math.max(1, users.length / Math.min(KYC_RECORDS, Math.ceil(users.length * 0.75)));
  const chosen = new Set<number>();
  for (let i = 0; i < users.length; i += step) chosen.add(Math.floor(i));
  for (const [index, u] of users.entries()) {
    if (!chosen.has(index)) continue;
    const roll = rand.next();
    const kind = roll < 0.38 ? 'pending' : roll < 0.6 ? 'approved' : roll < 0.7 ? 'rejected' : roll < 0.92 ? 'resubmitted' : 'approvedAfterResubmission';
    const earliest = Math.max(u.created_at.getTime() + DAY, now.getTime() - 90 * DAY);
    const span = Math.max(now.getTime() - earliest, 2 * DAY);
    // pending first submissions are recent (a few today); the rest older
    const firstAt = new Date(kind === 'pending' ? now.getTime() - rand.int(5, Math.min(20 * 24 * 60, Math.floor(span / MINUTE))) * MINUTE : earliest + Math.floor(rand.next() * span * 0.5));
    const first = draftSubmission(u, 1, rand, null, new Set());
    await insertImages(db, first.images, firstAt);
    const rec = await db.one<{ id: number }>(
      `INSERT INTO kyc_records (app_user_id, first_name, last_name, uid_type, uid, phone_no, email, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $8) RETURNING id`,
      [u.id, u.first_name, u.last_name, u.uid_type, u.uid, first.fields.find((f) => f.key === 'phoneNo')!.value, u.email, firstAt],
    );
    const kycId = rec!.id;
    submittedAt.set(u.id, firstAt);

    if (kind === 'pending') {
      await db.query('INSERT INTO kyc_submissions (kyc_id, seq, fields, submitted_at) VALUES ($1, 1, $2, $3)', [kycId, first.fields, firstAt]);
      continue;
    }
    const reviewer = rand.pick(REVIEWERS);
    const decidedAt = new Date(Math.min(firstAt.getTime() + rand.int(30, 2 * 24 * 60) * MINUTE, now.getTime() - 2 * DAY));
    const decideAt = decidedAt < firstAt ? new Date(firstAt.getTime() + 30 * MINUTE) : decidedAt;
    const rejectedGroups = new Set<GroupName>();
    if (kind !== 'approved') {
      const candidates: GroupName[] = ['uid', 'address', 'contact', 'selfie', 'personal'];
      rejectedGroups.add(rand.pick(candidates));
      if (rand.chance(0.35)) rejectedGroups.add(rand.pick(candidates));
    }
    const firstDecided = decideDraft(first, rejectedGroups, rand);
    const firstStatus = rejectedGroups.size ? 'REJECTED' : 'APPROVED';
    await db.query('INSERT INTO kyc_submissions (kyc_id, seq, fields, submitted_at, decision, decided_by, decided_at) VALUES ($1, 1, $2, $3, $4, $5, $6)', [
      kycId,
      firstDecided,
      firstAt,
      firstStatus,
      reviewer,
      decideAt,
    ]);
    await logDecision(db, reviewer, decideAt, kycId, u, 1, firstDecided);
    let status = firstStatus;
    let updatedAt = decideAt;

    if (kind === 'resubmitted' || kind === 'approvedAfterResubmission') {
      const secondAt = new Date(Math.min(decideAt.getTime() + rand.int(60, 5 * 24 * 60) * MINUTE, now.getTime() - rand.int(10, 600) * MINUTE));
      const resubmittedAt = secondAt <= decideAt ? new Date(decideAt.getTime() + 10 * MINUTE) : secondAt;
      const second = draftSubmission(u, 2, rand, { fields: firstDecided, images: [] }, rejectedGroups);
      await insertImages(db, second.images, resubmittedAt);
      if (kind === 'resubmitted') {
        await db.query('INSERT INTO kyc_submissions (kyc_id, seq, fields, submitted_at) VALUES ($1, 2, $2, $3)', [kycId, second.fields, resubmittedAt]);
        status = 'PENDING';
        updatedAt = resubmittedAt;
      } else {
        const secondDecidedAt = new Date(Math.min(resubmittedAt.getTime() + rand.int(20, 24 * 60) * MINUTE, now.getTime() - MINUTE));
        const at = secondDecidedAt <= resubmittedAt ? new Date(resubmittedAt.getTime() + MINUTE) : secondDecidedAt;
        const secondDecided = decideDraft(second, new Set(), rand);
        await db.query('INSERT INTO kyc_submissions (kyc_id, seq, fields, submitted_at, decision, decided_by, decided_at) VALUES ($1, 2, $2, $3, $4, $5, $6)', [
          kycId,
          secondDecided,
          resubmittedAt,
          'APPROVED',
          reviewer,
          at,
        ]);
        await logDecision(db, reviewer, at, kycId, u, 2, secondDecided);
        status = 'APPROVED';
        updatedAt = at;
      }
      await db.query('UPDATE kyc_records SET phone_no = $2 WHERE id = $1', [kycId, second.fields.find((f) => f.key === 'phoneNo')!.value]);
    }
    await db.query('UPDATE kyc_records SET status = $2, updated_at = $3 WHERE id = $1', [kycId, status, updatedAt]);
  }
  return submittedAt;
}

const DEVICES = ['Samsung Galaxy S23', 'Samsung Galaxy A54', 'iPhone 14 Pro', 'iPhone 12', 'Huawei P30 Lite', 'Huawei Nova 9', 'Xiaomi Redmi Note 12', 'Google Pixel 7', 'OPPO A78', 'vivo Y36'];
const BANK_NAMES = ['Bank of Ceylon', "People's Bank", 'Commercial Bank of Ceylon', 'Hatton National Bank', 'Sampath Bank', 'Seylan Bank', 'National Savings Bank'];
const BILLERS = ['Ceylon Electricity Board', 'National Water Supply and Drainage Board', 'Dialog Axiata', 'SLT Mobitel'];
const HOSPITALS = ['Asiri Central Hospital', 'Nawaloka Hospital', 'Lanka Hospitals', 'Durdans Hospital'];
const CURRENCY: Record<string, string> = {
  AE: 'AED',
  SA: 'SAR',
  QA: 'QAR',
  KW: 'KWD',
  OM: 'OMR',
  BH: 'BHD',
  IT: 'EUR',
  JP: 'JPY',
  KR: 'KRW',
  GB: 'GBP',
  AU: 'AUD',
  CA: 'CAD',
  US: 'USD',
  CY: 'EUR',
  IL: 'ILS',
  MV: 'MVR',
  LK: 'LKR',
};

function amountText(rand: Rand, currency: string): string {
  const n = currency === 'JPY' || currency === 'KRW' ? rand.int(10, 400) * 1000 : rand.int(5, 300) * 10;
  return `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** One app session: sign-in, a few actions, usually a sign-out. */
function sessionEvents(u: AppUser, rand: Rand): string[] {
  const currency = CURRENCY[u.country] ?? 'USD';
  const actions: (() => string)[] = [
    () => 'Viewed exchange rates',
    () => 'Viewed transaction history',
    () => `Sent money: ${amountText(rand, currency)} to ${rand.pick(BANK_NAMES)} account ****${rand.int(1000, 9999)}`,
    () => `Card payment completed for send money (${amountText(rand, currency)})`,
    () => `Added beneficiary ${rand.pick(FIRST_NAMES)} ${rand.pick(LAST_NAMES)} (${rand.pick(BANK_NAMES)})`,
    () => `Paid bill: ${rand.pick(BILLERS)} LKR ${(rand.int(8, 250) * 100).toLocaleString('en-US')}.00`,
    () => `Booked E-Channelling appointment at ${rand.pick(HOSPITALS)}`,
    () => `Purchased Thyaga gift voucher LKR ${(rand.int(1, 20) * 1000).toLocaleString('en-US')}.00`,
    () => 'Viewed insurance packages',
    () => 'Updated profile',
    () => 'Changed PIN',
  ];
  const events = [rand.chance(0.06) ? 'Failed sign-in: incorrect PIN' : 'Signed in'];
  if (events[0].startsWith('Failed')) events.push('Signed in');
  const n = rand.int(1, 4);
  for (let i = 0; i < n; i++) events.push(rand.pick(actions)());
  if (rand.chance(0.7)) events.push('Signed out');
  return events;
}

/** A few thousand mobile app events over the last 30 days, today included (only up to now). */
async function seedMobileActivity(db: Db, now: Date, users: AppUser[], kycSubmittedAt: Map<number, Date>, rand: Rand) {
  const rows: [number, string, string, Date][] = [];
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  // about 4.5 events a session, 31 days: the chance of a session per user and day for MOBILE_EVENTS in all
  const sessionChance = Math.min(0.6, Math.max(0.02, MOBILE_EVENTS / (Math.max(1, users.length) * 31 * 4.5)));
  for (const u of users) {
    const devices = [DEVICES[u.id % DEVICES.length], ...(u.id % 5 === 0 ? [DEVICES[(u.id * 3 + 1) % DEVICES.length]] : [])];
    const since = Math.max(u.created_at.getTime(), now.getTime() - 30 * DAY);
    for (let day = 30; day >= 0; day--) {
      const dayStart = day === 0 ? startOfToday.getTime() : startOfToday.getTime() - day * DAY;
      const dayEnd = day === 0 ? now.getTime() - MINUTE : dayStart + DAY - MINUTE;
      if (dayEnd <= since || dayEnd <= dayStart) continue;
      if (!rand.chance(day === 0 ? Math.min(1, sessionChance * 2) : sessionChance)) continue;
      const from = Math.max(dayStart, since);
      let t = from + Math.floor(rand.next() * Math.max(0, dayEnd - from - 20 * MINUTE));
      const device = rand.pick(devices);
      for (const description of sessionEvents(u, rand)) {
        if (t >= dayEnd) break;
        rows.push([u.id, device, description, new Date(t)]);
        t += rand.int(20, 400) * 1000;
      }
    }
    const kycAt = kycSubmittedAt.get(u.id);
    if (kycAt && kycAt.getTime() > since) rows.push([u.id, devices[0], 'Submitted KYC documents', kycAt]);
  }
  rows.sort((a, b) => a[3].getTime() - b[3].getTime());
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    const params: unknown[] = [];
    const values = batch.map((r, j) => {
      params.push(...r);
      return `($${j * 4 + 1}, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4})`;
    });
    await db.query(`INSERT INTO mobile_activity_logs (app_user_id, device_name, event_description, created_at) VALUES ${values.join(', ')}`, params);
  }
}

/** KYC, mobile activity and settlement history; runs after the app users and the transactions. */
export async function seedKycReports(db: Db, ctx: AreaSeedContext): Promise<void> {
  if (!(await db.one('SELECT 1 FROM kyc_records LIMIT 1'))) {
    const rand = prng(40_2024);
    await db.tx(async (tx) => {
      await ensureAppUsers(tx, ctx.now, rand);
      const users = await loadAppUsers(tx);
      const submitted = await seedKyc(tx, ctx.now, users, rand);
      await seedMobileActivity(tx, ctx.now, users, submitted, rand);
    });
  }
  await db.tx((tx) => seedSettlementHistory(tx, ctx));
}
