/**
 * Reference data: user levels, branches, exchange houses, merchants, IPG providers and the Sri Lankan
 * banks with their CEFT (LankaPay) bank codes.
 */
export const userLevels = [
  { level: 1, title: 'Officer' },
  { level: 2, title: 'Supervisor' },
  { level: 3, title: 'Manager' },
] as const;

export const HEAD_OFFICE = { code: 'HO', name: 'Head Office' } as const;

export const branches = [HEAD_OFFICE, { code: 'CMBFORT', name: 'Colombo Fort' }, { code: 'KANDY', name: 'Kandy' }, { code: 'GALLE', name: 'Galle' }, { code: 'JAFFNA', name: 'Jaffna' }] as const;

export const exchangeHouses = [
  { code: 'ALANSARI', name: 'Al Ansari Exchange' },
  { code: 'LULU', name: 'Lulu International Exchange' },
  { code: 'ALFARDAN', name: 'Al Fardan Exchange' },
  { code: 'BFC', name: 'BFC Exchange' },
  { code: 'KBIEC', name: 'Kuwait Bahrain International Exchange' },
] as const;

export const merchants = [
  { code: 'CEB', name: 'Ceylon Electricity Board' },
  { code: 'NWSDB', name: 'National Water Supply and Drainage Board' },
  { code: 'DIALOG', name: 'Dialog Axiata' },
  { code: 'SLT', name: 'SLT Mobitel' },
  { code: 'DOC990', name: 'Doc990 E-Channelling' },
  { code: 'THYAGA', name: 'Thyaga Gift Vouchers' },
] as const;

/** Logos are added with the image store; until then providers have none. */
export const ipgProviders = [
  { code: '7010', name: 'Bank of Ceylon IPG' },
  { code: '7056', name: 'Commercial Bank IPG' },
  { code: '7135', name: 'Peoples Bank IPG' },
  { code: '7278', name: 'Sampath Bank IPG' },
] as const;

export const banks = [
  { code: '7010', name: 'Bank of Ceylon' },
  { code: '7038', name: 'Standard Chartered Bank' },
  { code: '7056', name: 'Commercial Bank of Ceylon' },
  { code: '7083', name: 'Hatton National Bank' },
  { code: '7092', name: 'Hongkong and Shanghai Banking Corporation' },
  { code: '7135', name: "People's Bank" },
  { code: '7162', name: 'Nations Trust Bank' },
  { code: '7205', name: 'Deutsche Bank' },
  { code: '7214', name: 'National Development Bank' },
  { code: '7278', name: 'Sampath Bank' },
  { code: '7287', name: 'Seylan Bank' },
  { code: '7296', name: 'Public Bank Berhad' },
  { code: '7302', name: 'Union Bank of Colombo' },
  { code: '7311', name: 'Pan Asia Banking Corporation' },
  { code: '7384', name: 'Indian Bank' },
  { code: '7454', name: 'DFCC Bank' },
  { code: '7463', name: 'Amana Bank' },
  { code: '7472', name: 'Axis Bank' },
  { code: '7481', name: 'Cargills Bank' },
  { code: '7719', name: 'National Savings Bank' },
  { code: '7728', name: 'Sanasa Development Bank' },
  { code: '7737', name: 'HDFC Bank' },
  { code: '7746', name: 'Citizens Development Business Finance' },
  { code: '7755', name: 'Regional Development Bank' },
  { code: '7782', name: 'Sri Lanka Savings Bank' },
] as const;
