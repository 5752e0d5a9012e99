/**
 * Demo master data: logos for the Sri Lankan banks and the IPG providers, the providers' currencies
 * with today's (or an earlier day's) approved rates, advertisements with images, about 3000 app users
 * across the countries the service serves (with photos and identity documents, some held or
 * deactivated), and app versions per platform. Deterministic (seeded PRNG), dates relative to `now`;
 * every image is drawn in code (src/server/seed/png.ts).
 */
import type { Db } from '../db/db';
import { countries } from './countries';
import { hex, mix, Raster, type Rgb } from './png';
import { rateDayOf } from '../entities/provider';
import { readBusinessTimeZone } from '../environment';

const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
    hex: (bytes: number) =>
      Array.from({ length: bytes }, () =>
        Math.floor(next() * 256)
          .toString(16)
          .padStart(2, '0'),
      ).join(''),
  };
}
type Rand = ReturnType<typeof prng>;

async function putImage(db: Db, path: string, png: Buffer, at: Date): Promise<string> {
  await db.query('INSERT INTO images (path, content_type, bytes, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (path) DO NOTHING', [path, 'image/png', png, at]);
  return path;
}

// ---- logos ------------------------------------------------------------------------------------

/** Short names and brand colours of the banks (by CEFT code). */
const bankBrands: Record<string, { short: string; color: string }> = {
  '7010': { short: 'BOC', color: '#f2b705' },
  '7038': { short: 'SC', color: '#0072aa' },
  '7047': { short: 'CITI', color: '#056dae' },
  '7056': { short: 'COMBANK', color: '#0b4ea2' },
  '7074': { short: 'HBL', color: '#00684a' },
  '7083': { short: 'HNB', color: '#ffcc00' },
  '7092': { short: 'HSBC', color: '#db0011' },
  '7108': { short: 'IOB', color: '#1f3c88' },
  '7135': { short: 'PEOPLES', color: '#c8102e' },
  '7144': { short: 'SBI', color: '#22409a' },
  '7162': { short: 'NTB', color: '#003c71' },
  '7205': { short: 'DB', color: '#0018a8' },
  '7214': { short: 'NDB', color: '#e4002b' },
  '7269': { short: 'MCB', color: '#006a4e' },
  '7278': { short: 'SAMPATH', color: '#f58220' },
  '7287': { short: 'SEYLAN', color: '#e30613' },
  '7296': { short: 'PBB', color: '#d71920' },
  '7302': { short: 'UBC', color: '#00539b' },
  '7311': { short: 'PABC', color: '#005baa' },
  '7384': { short: 'IB', color: '#1d4f91' },
  '7454': { short: 'DFCC', color: '#8b1d41' },
  '7463': { short: 'AMANA', color: '#00843d' },
  '7472': { short: 'AXIS', color: '#97144d' },
  '7481': { short: 'CARGILLS', color: '#e2231a' },
  '7719': { short: 'NSB', color: '#f7a600' },
  '7728': { short: 'SDB', color: '#0a7d3b' },
  '7737': { short: 'HDFC', color: '#004c8f' },
  '7746': { short: 'CDB', color: '#00a651' },
  '7755': { short: 'RDB', color: '#6d2077' },
  '7782': { short: 'SLSB', color: '#2e3192' },
};

/** Banks the reference data lacks (CEFT codes). */
const extraBanks = [
  { code: '7047', name: 'Citibank N.A.' },
  { code: '7074', name: 'Habib Bank Ltd' },
  { code: '7108', name: 'Indian Overseas Bank' },
  { code: '7144', name: 'State Bank of India' },
  { code: '7269', name: 'MCB Bank Ltd' },
] as const;

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter((w) => /^[A-Z]/.test(w) && !['Of', 'And'].includes(w))
    .map((w) => w[0])
    .join('')
    .slice(0, 5);
}

/** A 240x120 logo: the brand colour, a short name, and the code. */
export function logoPng(short: string, code: string, color: Rgb, caption = ''): Buffer {
  const r = new Raster(240, 120, [255, 255, 255]);
  r.roundRect(4, 4, 232, 112, 16, color);
  const light = (color[0] * 299 + color[1] * 587 + color[2] * 114) / 1000 > 160;
  const ink: Rgb = light ? [20, 28, 45] : [255, 255, 255];
  const scale = short.length <= 4 ? 7 : short.length <= 6 ? 5 : 4;
  r.centredText(short, 22 + Math.round((7 * 7 - 7 * scale) / 2), scale, ink);
  r.fill(40, 82, 160, 2, ink, 0.5);
  r.centredText(caption ? `${caption} ${code}` : code, 92, 2, ink);
  return r.png();
}

// ---- advertisements ---------------------------------------------------------------------------

/** A 200x300 banner: a gradient, a headline of up to three lines, and a call to action. */
export function bannerPng(lines: readonly string[], cta: string, top: string, bottom: string, accent: string): Buffer {
  const r = new Raster(200, 300);
  r.gradient(hex(top), hex(bottom));
  r.ellipse(170, 40, 70, 70, [255, 255, 255], 0.08);
  r.ellipse(20, 260, 90, 60, [255, 255, 255], 0.06);
  lines.forEach((line, i) => {
    const scale = [4, 3, 2].find((s) => Raster.textWidth(line, s) <= 184) ?? 1;
    r.centredText(line, 60 + i * 42, scale, [255, 255, 255]);
  });
  r.roundRect(30, 220, 140, 40, 10, hex(accent));
  r.centredText(cta, 234, 2, [20, 28, 45]);
  return r.png();
}

const advertisements = [
  {
    title: 'Send Money Home with Zero Fees',
    countries: ['AE', 'SA', 'QA', 'KW'],
    from: -12,
    to: 18,
    disabled: 0,
    art: [
      [['ZERO FEES', 'SEND HOME', 'TODAY'], 'SEND NOW', '#0b4ea2', '#062a5a', '#ffd166'],
      [['BEST RATE', 'USD AED SAR'], 'SEE RATES', '#1b998b', '#0b5d55', '#f4f1de'],
    ],
    link: 'https://www.remitops.lk/offers/zero-fees',
  },
  {
    title: 'Doctor Channelling for Your Family',
    countries: ['ALL'],
    from: -40,
    to: 50,
    disabled: 0,
    art: [[['DOCTOR', 'CHANNELLING', 'ANYWHERE'], 'BOOK NOW', '#2a9d8f', '#1d3557', '#e9c46a']],
    link: 'https://www.remitops.lk/echannelling',
  },
  {
    title: 'Thyaga Gift Vouchers',
    countries: ['ALL'],
    from: -5,
    to: 25,
    disabled: 0,
    art: [
      [['GIFT', 'VOUCHERS', 'FOR HOME'], 'BUY NOW', '#e76f51', '#9d0208', '#ffd6a5'],
      [['BIRTHDAYS', 'WEDDINGS', 'AVURUDU'], 'SHOP', '#6a4c93', '#2b2d42', '#ffca3a'],
    ],
    link: 'https://www.remitops.lk/thyaga',
  },
  {
    title: 'Insurance for Migrant Workers',
    countries: ['SA', 'KW', 'QA', 'OM', 'BH'],
    from: -20,
    to: 70,
    disabled: 0,
    art: [[['STAY', 'PROTECTED', 'ABROAD'], 'GET COVER', '#264653', '#0b132b', '#90e0ef']],
    link: 'https://www.remitops.lk/insurance',
  },
  {
    title: 'Korea and Japan Remittance Bonus',
    countries: ['KR', 'JP'],
    from: -3,
    to: 30,
    disabled: 0,
    art: [[['KRW JPY', 'BONUS', 'RATE'], 'LEARN MORE', '#3a86ff', '#023e8a', '#ffbe0b']],
    link: 'https://www.remitops.lk/offers/korea-japan',
  },
  {
    title: 'Europe Corridor Launch',
    countries: ['IT', 'CY', 'GB'],
    from: -90,
    to: -30,
    disabled: 1,
    art: [[['NOW IN', 'EUROPE'], 'DETAILS', '#8338ec', '#3a0ca3', '#ffbe0b']],
    link: 'https://www.remitops.lk/europe',
  },
  {
    title: 'Pay Bills Back Home',
    countries: ['AE', 'GB', 'AU', 'CA', 'US'],
    from: 0,
    to: 45,
    disabled: 0,
    art: [
      [['PAY BILLS', 'CEB NWSDB', 'DIALOG SLT'], 'PAY NOW', '#ff006e', '#8338ec', '#fefae0'],
      [['ANY TIME', 'ANY BANK'], 'PAY NOW', '#fb5607', '#9e2a2b', '#fefae0'],
      [['2 MINUTES', 'DONE'], 'TRY IT', '#06d6a0', '#118ab2', '#073b4c'],
    ],
    link: 'https://www.remitops.lk/bills',
  },
] as const;

// ---- IPG currencies ---------------------------------------------------------------------------

/** Mid rates in LKR per unit. */
const midRates: Record<string, number> = {
  USD: 300.25,
  EUR: 326.8,
  GBP: 381.45,
  AED: 81.75,
  SAR: 80.05,
  QAR: 82.45,
  KWD: 977.3,
  OMR: 779.9,
  BHD: 796.4,
  JPY: 2.0125,
  KRW: 0.2185,
  AUD: 197.6,
  CAD: 219.85,
  CHF: 340.1,
  SGD: 225.4,
  NZD: 180.3,
  ILS: 81.2,
  MYR: 67.45,
  HKD: 38.55,
  CNY: 41.6,
};

const providerSetup = [
  { code: '7010', currencies: Object.keys(midRates), spread: 0.012, disabledCurrencies: ['CNY'], lastApprovedDaysAgo: 1 },
  { code: '7056', currencies: ['USD', 'EUR', 'GBP', 'AED', 'SAR', 'QAR', 'KWD', 'OMR', 'BHD', 'JPY', 'KRW', 'AUD', 'CAD', 'SGD'], spread: 0.01, disabledCurrencies: [], lastApprovedDaysAgo: 0 },
  { code: '7135', currencies: ['USD', 'EUR', 'GBP', 'AED', 'SAR', 'QAR', 'KWD', 'OMR', 'JPY', 'KRW', 'AUD', 'ILS'], spread: 0.014, disabledCurrencies: ['ILS'], lastApprovedDaysAgo: 0 },
  { code: '7278', currencies: ['USD', 'EUR', 'GBP', 'AED', 'SAR', 'QAR', 'KWD', 'JPY', 'KRW', 'CAD'], spread: 0.011, disabledCurrencies: [], lastApprovedDaysAgo: 3 },
  { code: '7083', currencies: ['USD', 'EUR', 'GBP', 'AED', 'SAR', 'QAR', 'AUD', 'CAD'], spread: 0.013, disabledCurrencies: ['CAD'], lastApprovedDaysAgo: 40 },
] as const;

/** Providers the reference data lacks. */
const extraProviders = [{ code: '7083', name: 'Hatton National Bank IPG', disabled: 1 }] as const;

// ---- app users --------------------------------------------------------------------------------

const sinhalaMale = [
  'Nimal',
  'Sunil',
  'Ruwan',
  'Kasun',
  'Mahesh',
  'Tharindu',
  'Lahiru',
  'Roshan',
  'Chaminda',
  'Pradeep',
  'Asanka',
  'Dinesh',
  'Nuwan',
  'Janaka',
  'Saman',
  'Chathura',
  'Buddhika',
  'Isuru',
  'Sampath',
  'Upul',
  'Gayan',
  'Thilina',
  'Malith',
  'Dhanushka',
  'Kavinda',
];
const sinhalaFemale = [
  'Kamala',
  'Dilani',
  'Chamari',
  'Ishara',
  'Priyanka',
  'Sanduni',
  'Nadeesha',
  'Anusha',
  'Shanika',
  'Madushani',
  'Nirosha',
  'Dilrukshi',
  'Thilini',
  'Hasini',
  'Sewwandi',
  'Ruwani',
  'Kumudu',
  'Gayani',
  'Samanthi',
  'Nilmini',
];
const sinhalaLast = [
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
  'Ekanayake',
  'Rathnayake',
  'Wijesinghe',
  'Kumara',
  'Weerasinghe',
  'Abeysekara',
  'Liyanage',
  'Amarasinghe',
  'Jayawardena',
  'Samarasinghe',
  'Pathirana',
  'Gamage',
  'Ranasinghe',
];
const tamilMale = ['Arjun', 'Suresh', 'Kumaran', 'Rajesh', 'Senthil', 'Prakash', 'Ganesh', 'Mathan', 'Thivakar', 'Kajan', 'Niroshan', 'Sivakumar'];
const tamilFemale = ['Shanthi', 'Kavitha', 'Priya', 'Tharshini', 'Vathani', 'Meena', 'Janani', 'Sharmila', 'Nirosha', 'Keerthana'];
const tamilLast = ['Thevarajah', 'Sivalingam', 'Navaratnam', 'Kanagaratnam', 'Selvarajah', 'Rajendran', 'Balasubramaniam', 'Yogarajah', 'Sritharan', 'Mahendran', 'Jeyakumar', 'Ponnambalam'];
const muslimMale = ['Mohamed', 'Ahamed', 'Rizwan', 'Imran', 'Farhan', 'Nazeer', 'Riyas', 'Aslam', 'Hakeem', 'Fazil'];
const muslimFemale = ['Fathima', 'Rizna', 'Sameera', 'Aysha', 'Nuzra', 'Shifana', 'Rukshana', 'Hafsa'];
const muslimLast = ['Rizwan', 'Farook', 'Nizam', 'Hameed', 'Marikar', 'Cassim', 'Ismail', 'Junaideen', 'Rahuman', 'Careem'];
const mailDomains = ['gmail.com', 'gmail.com', 'gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com'];

/** Where the service's customers live (weights, percent). */
const countryWeights: Record<string, number> = { AE: 22, SA: 18, QA: 12, KW: 10, OM: 5, BH: 3, IT: 5, JP: 3, KR: 6, GB: 4, AU: 3, CA: 2, US: 1, CY: 2, IL: 2, MV: 1, LK: 1 };

/** A mobile number's national part, by country (digits). */
function mobileNumber(country: string, rand: Rand): string {
  const digits = (n: number) => Array.from({ length: n }, () => rand.int(0, 9)).join('');
  switch (country) {
    case 'AE':
      return `5${rand.pick(['0', '2', '5', '6', '8'])}${digits(7)}`;
    case 'SA':
      return `5${rand.pick(['0', '3', '4', '5', '6', '9'])}${digits(7)}`;
    case 'QA':
      return `${rand.pick(['3', '5', '6', '7'])}${digits(7)}`;
    case 'KW':
      return `${rand.pick(['5', '6', '9'])}${digits(7)}`;
    case 'OM':
      return `9${digits(7)}`;
    case 'BH':
      return `3${digits(7)}`;
    case 'IT':
      return `3${rand.int(20, 93)}${digits(7)}`;
    case 'JP':
      return `${rand.pick(['70', '80', '90'])}${digits(8)}`;
    case 'KR':
      return `10${digits(8)}`;
    case 'GB':
      return `7${rand.int(400, 999)}${digits(6)}`;
    case 'AU':
      return `4${digits(8)}`;
    case 'CA':
    case 'US':
      return `${rand.int(201, 989)}${rand.int(200, 999)}${digits(4)}`;
    case 'CY':
      return `9${rand.pick(['6', '7', '9'])}${digits(6)}`;
    case 'IL':
      return `5${rand.pick(['0', '2', '3', '4', '8'])}${digits(7)}`;
    case 'MV':
      return `7${digits(6)}`;
    default:
      return `7${rand.pick(['0', '1', '2', '5', '6', '7', '8'])}${digits(7)}`;
  }
}

const holdReasons = [
  'Suspicious transaction pattern under review',
  'KYC documents expired',
  'Hold requested by the customer',
  'Beneficiary account mismatch reported by the bank',
  'Multiple failed PIN attempts',
];

/** A head-and-shoulders photo placeholder in a skin tone, on a coloured background. */
function selfiePng(rand: Rand): Buffer {
  const bg = mix(hex(rand.pick(['#cfd8dc', '#d7ccc8', '#c5cae9', '#b2dfdb', '#f0f4c3', '#ffe0b2'])), [255, 255, 255], 0.3);
  const skin = hex(rand.pick(['#8d5524', '#a0662e', '#c68642', '#7a4a1f', '#b07a45', '#9c6b3c']));
  const shirt = hex(rand.pick(['#1d3557', '#457b9d', '#2a9d8f', '#6d597a', '#b56576', '#264653', '#e76f51']));
  const hair: Rgb = hex(rand.pick(['#1b1b1b', '#2b1d14', '#3b2a1e']));
  const r = new Raster(120, 150, bg);
  r.ellipse(60, 150, 52, 42, shirt);
  r.fill(50, 88, 20, 20, skin);
  r.ellipse(60, 62, 28, 34, skin);
  r.ellipse(60, 40, 30, 18, hair);
  r.ellipse(49, 62, 3, 3, [30, 30, 30]);
  r.ellipse(71, 62, 3, 3, [30, 30, 30]);
  r.fill(53, 80, 14, 2, mix(skin, [80, 30, 30], 0.5));
  return r.png();
}

function nicFrontPng(rand: Rand): Buffer {
  const r = new Raster(240, 150, hex('#f6e7c1'));
  r.fill(0, 0, 240, 26, hex('#8c1c13'));
  r.centredText('NATIONAL IDENTITY CARD', 9, 1, [255, 255, 255]);
  r.fill(12, 38, 70, 90, mix(hex('#f6e7c1'), [120, 90, 60], 0.3));
  r.ellipse(47, 70, 18, 22, hex('#a0662e'));
  r.ellipse(47, 125, 30, 22, hex('#1d3557'));
  for (let i = 0; i < 5; i++) r.fill(96, 44 + i * 16, rand.int(90, 130), 5, [90, 70, 50], 0.6);
  r.text('SRI LANKA', 96, 130, 1, [140, 28, 19]);
  return r.png();
}

function nicBackPng(rand: Rand): Buffer {
  const r = new Raster(240, 150, hex('#f3e2b8'));
  for (let i = 0; i < 6; i++) r.fill(16, 20 + i * 16, rand.int(120, 200), 5, [90, 70, 50], 0.5);
  for (let x = 16; x < 224; x += 3) r.fill(x, 118, rand.int(1, 2), 20, [30, 30, 30]);
  return r.png();
}

function passportPng(rand: Rand): Buffer {
  const r = new Raster(240, 160, hex('#e8eef7'));
  r.fill(0, 0, 240, 22, hex('#7b1e3a'));
  r.centredText('PASSPORT', 7, 1, [255, 255, 255]);
  r.fill(12, 32, 66, 84, hex('#d7dde8'));
  r.ellipse(45, 62, 17, 21, hex('#b07a45'));
  r.ellipse(45, 112, 28, 20, hex('#264653'));
  for (let i = 0; i < 5; i++) r.fill(92, 36 + i * 15, rand.int(70, 130), 5, [60, 70, 90], 0.6);
  r.text('P<LKA', 12, 128, 2, [40, 40, 40]);
  for (let x = 80; x < 228; x += 12) r.text('<', x, 128, 2, [40, 40, 40]);
  return r.png();
}

function nicNumber(birthYear: number, rand: Rand): string {
  const day = rand.int(1, 365) + (rand.chance(0.5) ? 500 : 0);
  if (birthYear < 1990 && rand.chance(0.7)) return `${String(birthYear).slice(2)}${String(day).padStart(3, '0')}${rand.int(1000, 9999)}V`;
  return `${birthYear}${String(day).padStart(3, '0')}${rand.int(10000, 99999)}`.slice(0, 12);
}

export const APP_USER_COUNT = 3000;

// ---- app versions -----------------------------------------------------------------------------

const appVersions = [
  { v: '1.0.0+1', p: ['ANDROID', 'IOS'], force: 0, days: 720 },
  { v: '1.1.0+6', p: ['ANDROID', 'IOS'], force: 0, days: 640 },
  { v: '1.2.0+11', p: ['ANDROID', 'IOS'], force: 0, days: 560 },
  { v: '1.2.1+12', p: ['ANDROID'], force: 0, days: 552 },
  { v: '1.3.0+17', p: ['ANDROID', 'IOS'], force: 1, days: 470 },
  { v: '2.0.0+23', p: ['ANDROID', 'IOS', 'HUAWEI'], force: 1, days: 380 },
  { v: '2.0.1+24', p: ['HUAWEI'], force: 0, days: 371 },
  { v: '2.1.0+29', p: ['ANDROID', 'IOS', 'HUAWEI'], force: 0, days: 290 },
  { v: '2.2.0+34', p: ['ANDROID', 'IOS', 'HUAWEI'], force: 0, days: 200 },
  { v: '2.2.1+35', p: ['IOS'], force: 0, days: 194 },
  { v: '2.3.0+41', p: ['ANDROID', 'IOS', 'HUAWEI'], force: 1, days: 110 },
  { v: '2.4.0+47', p: ['ANDROID', 'IOS', 'HUAWEI'], force: 0, days: 35 },
  { v: '2.4.1+48', p: ['ANDROID', 'HUAWEI'], force: 0, days: 9 },
] as const;

// ---- the seeder -------------------------------------------------------------------------------

export async function seedMasterData(db: Db, { now }: { now: Date }): Promise<void> {
  const rand = prng(20_240_501);
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  await db.tx(async (tx) => {
    await seedBanks(tx, rand, ago);
    await seedProviders(tx, rand, now, ago);
    await seedAdvertisements(tx, rand, now, ago);
    await seedAppVersions(tx, ago);
  });
  await seedAppUsers(db, rand, now);
}

async function seedBanks(db: Db, rand: Rand, ago: (d: number) => Date): Promise<void> {
  for (const b of extraBanks) {
    await db.query('INSERT INTO banks (bank_code, bank_name, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (bank_code) DO NOTHING', [b.code, b.name, ago(400)]);
  }
  const banks = await db.query<{ id: number; bank_code: string; bank_name: string }>('SELECT id, bank_code, bank_name FROM banks WHERE logo IS NULL ORDER BY id');
  for (const b of banks) {
    const brand = bankBrands[b.bank_code] ?? { short: initials(b.bank_name) || b.bank_code, color: '#455a64' };
    const created = ago(rand.int(300, 420));
    const path = await putImage(db, `images/banks/${brand.short.toLowerCase()}-${rand.hex(6)}.png`, logoPng(brand.short, b.bank_code, hex(brand.color)), created);
    const updated = new Date(created.getTime() + rand.int(0, 250) * DAY);
    await db.query('UPDATE banks SET logo = $2, created_at = $3, updated_at = $4 WHERE id = $1', [b.id, path, created, updated]);
  }
  // a few banks no longer take part in CEFT
  await db.query("UPDATE banks SET disabled = 1 WHERE bank_code IN ('7205', '7296')");
}

async function seedProviders(db: Db, rand: Rand, now: Date, ago: (d: number) => Date): Promise<void> {
  for (const p of extraProviders) {
    await db.query('INSERT INTO ipg_providers (provider_bank_code, provider_bank_name, disabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (provider_bank_code) DO NOTHING', [
      p.code,
      p.name,
      p.disabled,
      ago(200),
    ]);
  }
  const providers = await db.query<{ id: number; provider_bank_code: string; provider_logo: string | null }>('SELECT id, provider_bank_code, provider_logo FROM ipg_providers ORDER BY id');
  for (const p of providers) {
    const brand = bankBrands[p.provider_bank_code] ?? { short: 'IPG', color: '#455a64' };
    if (!p.provider_logo) {
      const path = await putImage(db, `images/providers/${brand.short.toLowerCase()}-ipg-${rand.hex(6)}.png`, logoPng(brand.short, p.provider_bank_code, hex(brand.color), 'IPG'), ago(300));
      await db.query('UPDATE ipg_providers SET provider_logo = $2 WHERE id = $1', [p.id, path]);
    }
    const setup = providerSetup.find((s) => s.code === p.provider_bank_code);
    if (!setup) continue;
    for (const code of setup.currencies) {
      const mid = midRates[code] * (1 + (rand.next() - 0.5) * 0.004);
      const transaction = Math.round(mid * (1 + setup.spread) * 10_000) / 10_000;
      const settlement = Math.round(mid * (1 - setup.spread / 3) * 10_000) / 10_000;
      const disabled = (setup.disabledCurrencies as readonly string[]).includes(code) ? 1 : 0;
      const updated = ago(setup.lastApprovedDaysAgo);
      await db.query(
        `INSERT INTO ipg_provider_currencies (provider_id, currency_code, transaction_rate, settlement_rate, disabled, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (provider_id, currency_code) DO NOTHING`,
        [p.id, code, transaction, settlement, disabled, ago(300), updated],
      );
    }
    // the days the bank's rates were approved: most working days of the last month, the last one as set up
    for (let d = 30; d >= setup.lastApprovedDaysAgo; d--) {
      const day = ago(d);
      if (d !== setup.lastApprovedDaysAgo && (day.getDay() === 0 || rand.chance(0.15))) continue;
      const at =
        d === 0
          ? new Date(Math.min(now.getTime(), new Date(`${rateDayOf(now, readBusinessTimeZone())}T08:45:00`).getTime()))
          : new Date(`${rateDayOf(day, readBusinessTimeZone())}T08:${String(rand.int(30, 59)).padStart(2, '0')}:00`);
      await db.query('INSERT INTO ipg_provider_rate_approvals (provider_id, rate_date, approved_by, approved_at) VALUES ($1, $2, $3, $4)', [p.id, rateDayOf(at, readBusinessTimeZone()), 'admin', at]);
    }
  }
}

async function seedAdvertisements(db: Db, rand: Rand, now: Date, ago: (d: number) => Date): Promise<void> {
  if (await db.one('SELECT 1 FROM advertisements LIMIT 1')) return;
  for (const [i, ad] of advertisements.entries()) {
    const created = ago(Math.max(1, -ad.from + rand.int(2, 10)));
    const images = [];
    for (const [n, [lines, cta, top, bottom, accent]] of ad.art.entries()) {
      const path = await putImage(db, `images/advertisements/ad-${i + 1}-${n + 1}-${rand.hex(6)}.png`, bannerPng(lines, cta, top, bottom, accent), created);
      images.push({ image: path, link: n === 0 ? ad.link : `${ad.link}?slide=${n + 1}` });
    }
    await db.query(`INSERT INTO advertisements (title, countries, valid_from, valid_to, images, disabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      ad.title,
      ad.countries,
      rateDayOf(new Date(now.getTime() + ad.from * DAY), readBusinessTimeZone()),
      rateDayOf(new Date(now.getTime() + ad.to * DAY), readBusinessTimeZone()),
      images,
      ad.disabled,
      created,
      new Date(created.getTime() + rand.int(0, 2) * DAY),
    ]);
  }
}

async function seedAppVersions(db: Db, ago: (d: number) => Date): Promise<void> {
  for (const v of appVersions) {
    await db.query('INSERT INTO app_versions (app_version, platforms, force_update, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (app_version) DO NOTHING', [
      v.v,
      v.p,
      v.force,
      ago(v.days),
    ]);
  }
}

async function seedAppUsers(db: Db, rand: Rand, now: Date): Promise<void> {
  if (await db.one('SELECT 1 FROM app_users LIMIT 1')) return;
  const at = new Date(now.getTime() - 730 * DAY);
  // a pool of photos and documents the demo users share
  const pool = { selfie: [] as string[], front: [] as string[], back: [] as string[], passport: [] as string[] };
  await db.tx(async (tx) => {
    for (let i = 0; i < 24; i++) pool.selfie.push(await putImage(tx, `images/app-users/selfie-${rand.hex(8)}.png`, selfiePng(rand), at));
    for (let i = 0; i < 10; i++) pool.front.push(await putImage(tx, `images/app-users/nic-front-${rand.hex(8)}.png`, nicFrontPng(rand), at));
    for (let i = 0; i < 10; i++) pool.back.push(await putImage(tx, `images/app-users/nic-back-${rand.hex(8)}.png`, nicBackPng(rand), at));
    for (let i = 0; i < 8; i++) pool.passport.push(await putImage(tx, `images/app-users/passport-${rand.hex(8)}.png`, passportPng(rand), at));
  });

  const dial = new Map<string, string>(countries.map((c) => [c.code, c.dial.replace('+', '')]));
  const weighted = Object.entries(countryWeights).flatMap(([code, w]) => Array<string>(w).fill(code));
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const secondsToday = Math.floor((now.getTime() - midnight.getTime()) / 1000);
  const usedEmails = new Set<string>();
  const usedUids = new Set<string>();
  const rows: unknown[][] = [];
  for (let i = 0; i < APP_USER_COUNT; i++) {
    const community = rand.next();
    const female = rand.chance(0.42);
    const [firsts, lasts] =
      community < 0.72 ? [female ? sinhalaFemale : sinhalaMale, sinhalaLast] : community < 0.88 ? [female ? tamilFemale : tamilMale, tamilLast] : [female ? muslimFemale : muslimMale, muslimLast];
    const first = rand.pick(firsts);
    const last = rand.pick(lasts);
    const country = i < 6 ? rand.pick(['AE', 'SA', 'QA', 'KR']) : rand.pick(weighted);
    const passport = rand.chance(country === 'LK' ? 0.05 : 0.25);
    let uid: string;
    do uid = passport ? `${rand.pick(['N', 'N', 'N', 'M'])}${rand.int(1_000_000, 9_999_999)}` : nicNumber(rand.int(1965, 2003), rand);
    while (usedUids.has(uid));
    usedUids.add(uid);
    let email = '';
    for (let n = 0; !email || usedEmails.has(email); n++) {
      const base = rand.pick([`${first}.${last}`, `${first}${last}`, `${first}.${last[0]}`, `${first}${rand.int(70, 99)}`]).toLowerCase();
      email = `${base}${n ? n : ''}@${rand.pick(mailDomains)}`;
    }
    usedEmails.add(email);
    // registrations grow over the two years; the first few registered today
    const daysAgo = i < 6 ? 0 : Math.floor(730 * (1 - Math.sqrt(rand.next())));
    const created = new Date(now.getTime() - daysAgo * DAY - rand.int(0, i < 6 ? Math.min(6 * 3600, secondsToday) : 86_399) * 1000);
    const lastLogin = new Date(Math.min(now.getTime(), created.getTime() + Math.floor((now.getTime() - created.getTime()) * Math.pow(rand.next(), 0.25))));
    const disabled = rand.chance(0.03) ? 1 : 0;
    const hold = !disabled && rand.chance(0.025) ? 1 : 0;
    rows.push([
      first,
      last,
      passport ? 'PASSPORT' : 'NIC',
      uid,
      `${dial.get(country) ?? ''}${mobileNumber(country, rand)}`,
      email,
      country,
      disabled,
      hold,
      hold ? rand.pick(holdReasons) : null,
      rand.chance(0.93) ? rand.pick(pool.selfie) : null,
      rand.chance(0.9) ? rand.pick(passport ? pool.passport : pool.front) : null,
      !passport && rand.chance(0.88) ? rand.pick(pool.back) : null,
      created,
      lastLogin,
    ]);
  }
  rows.sort((a, b) => (a[13] as Date).getTime() - (b[13] as Date).getTime()); // ids in order of registration
  const columns = ['first_name', 'last_name', 'uid_type', 'uid', 'contact', 'email', 'country', 'disabled', 'hold', 'user_hold_reason', 'selfie', 'uid_front', 'uid_back', 'created_at', 'updated_at'];
  await db.tx(async (tx) => {
    for (let start = 0; start < rows.length; start += 250) {
      const batch = rows.slice(start, start + 250);
      const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
      await tx.query(`INSERT INTO app_users (${columns.join(', ')}) VALUES ${values}`, batch.flat());
    }
  });
}
