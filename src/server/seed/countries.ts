/** The countries the service serves (the corridors) and Sri Lanka, with dial codes and currencies. */
import type { Db } from '../db/db';

export const countries = [
  { code: 'AE', name: 'United Arab Emirates', dial: '+971', currency: 'AED' },
  { code: 'SA', name: 'Saudi Arabia', dial: '+966', currency: 'SAR' },
  { code: 'QA', name: 'Qatar', dial: '+974', currency: 'QAR' },
  { code: 'KW', name: 'Kuwait', dial: '+965', currency: 'KWD' },
  { code: 'OM', name: 'Oman', dial: '+968', currency: 'OMR' },
  { code: 'BH', name: 'Bahrain', dial: '+973', currency: 'BHD' },
  { code: 'IT', name: 'Italy', dial: '+39', currency: 'EUR' },
  { code: 'JP', name: 'Japan', dial: '+81', currency: 'JPY' },
  { code: 'KR', name: 'Korea, Republic of', dial: '+82', currency: 'KRW' },
  { code: 'GB', name: 'United Kingdom of Great Britain and Northern Ireland', dial: '+44', currency: 'GBP' },
  { code: 'AU', name: 'Australia', dial: '+61', currency: 'AUD' },
  { code: 'CA', name: 'Canada', dial: '+1', currency: 'CAD' },
  { code: 'US', name: 'United States of America', dial: '+1', currency: 'USD' },
  { code: 'CY', name: 'Cyprus', dial: '+357', currency: 'EUR' },
  { code: 'IL', name: 'Israel', dial: '+972', currency: 'ILS' },
  { code: 'MV', name: 'Maldives', dial: '+960', currency: 'MVR' },
  { code: 'LK', name: 'Sri Lanka', dial: '+94', currency: 'LKR' },
] as const;

export async function insertCountries(db: Db): Promise<void> {
  for (const c of countries) {
    await db.query('INSERT INTO countries (code, name, dial_code, currency_code) VALUES ($1, $2, $3, $4) ON CONFLICT (code) DO NOTHING', [c.code, c.name, c.dial, c.currency]);
  }
}
