/** The export quota settings: their defaults, and a bad value stopping the start with a message naming it. */
import { describe, expect, it } from 'vitest';
import { readExportSettings } from '../../src/server/exportJobs/settings';
import { StartupRefusal } from '../../src/server/environment';

describe('EXPORT_QUOTA_FILES and EXPORT_QUOTA_BYTES', () => {
  it('default to 5 files and 2 GiB, and take whole numbers', () => {
    expect(readExportSettings({})).toMatchObject({ quotaFiles: 5, quotaBytes: 2 * 1024 ** 3 });
    expect(readExportSettings({ EXPORT_QUOTA_FILES: '12', EXPORT_QUOTA_BYTES: '1048576' })).toMatchObject({ quotaFiles: 12, quotaBytes: 1048576 });
  });
  it('refuse a value that is not a whole number in range, naming the setting', () => {
    for (const [name, value] of [
      ['EXPORT_QUOTA_FILES', '0'],
      ['EXPORT_QUOTA_FILES', '2.5'],
      ['EXPORT_QUOTA_BYTES', '1000'],
      ['EXPORT_QUOTA_BYTES', '2GB'],
    ] as const) {
      expect(() => readExportSettings({ [name]: value })).toThrow(StartupRefusal);
      expect(() => readExportSettings({ [name]: value })).toThrow(new RegExp(`^${name}: "${value}" is not a whole number`));
    }
  });
});
