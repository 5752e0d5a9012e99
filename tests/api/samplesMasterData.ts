/** Valid request bodies of the master-data calls (spec 002): IPG providers and currencies, banks, advertisements, app users, app versions. */

/** A 2x2 PNG, base64 without prefix (bank logos, advertisement images). */
export const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR42mPg9lv0H4QZYAwAQNoH6f5j6gkAAAAASUVORK5CYII=';

export const masterDataSamples: Record<string, unknown> = {
  'IPGProvider/list': {},
  'IPGProvider/disable': { id: 1, disable: true },
  'IPGProvider/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'IPGProvider/currency/list': { provider_bank_code: '7010' },
  'IPGProvider/currency/save': {
    provider_bank_code: '7010',
    currencies: [{ disabled: 0, provider_bank_code: '7010', currency_code: 'USD', transaction_rate: 303.85, settlement_rate: 299.25 }],
  },
  'IPGProvider/currency/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'bank/list': {},
  'bank/get-for-edit': { id: 1 },
  'bank/create': { bank_name: 'Sample Bank', bank_code: 'SAMPLE1', logo: SAMPLE_PNG, disabled: 0 },
  'bank/edit': { id: 1, bank_name: 'Bank of Ceylon', bank_code: '7010', logo: SAMPLE_PNG, disabled: 0 },
  'bank/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'advertisement/list': {},
  'advertisement/initial-create-data': {},
  'advertisement/create': {
    title: 'Sample Offer',
    countries: ['AE'],
    valid_from: '2027-01-01T00:00:01',
    valid_to: '2027-01-31T23:59:59',
    images: [{ image: SAMPLE_PNG, link: 'https://www.remitops.lk/offers' }],
    disabled: 0,
  },
  'advertisement/get-for-edit': { id: 1 },
  'advertisement/edit': {
    id: 1,
    title: 'Sample Offer',
    countries: ['AE'],
    valid_from: '2027-01-01T00:00:01',
    valid_to: '2027-01-31T23:59:59',
    images: [{ image: SAMPLE_PNG, link: 'https://www.remitops.lk/offers' }],
    disabled: 0,
  },
  'advertisement/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'AppUser/list': { data: '', countryCode: '', fetchCount: 10 },
  'AppUser/disable': { id: 1, disable: true },
  'AppUser/hold': { id: 1, hold: true, description: 'Suspicious transaction pattern under review' },
  'AppUser/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'appVersion/list': {},
  'appVersion/create': { appVersion: '9.0.0+900', platforms: 'ANDROID,IOS', forceUpdate: 0 },
  'appVersion/approve': { changeRequestID: 1, actionTaken: 'approve' },
};
