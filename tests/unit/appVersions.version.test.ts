/** App versions: the four numeric parts and the platforms (spec 002 §5, §9). */
import { describe, expect, it } from 'vitest';
import { appVersionCreate, appVersionFormSchema, joinVersion, versionParts } from '../../src/api/appVersions';
import { appVersionCreateScreen } from '../../screens/appVersions';

const issues = (v: Record<string, unknown>) =>
  appVersionFormSchema.safeParse({ appVersion: '2.6.0+61', platforms: ['ANDROID'], forceUpdate: 0, ...v }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('version parts', () => {
  it('splits and joins major.minor.patch+build', () => {
    expect(versionParts('2.6.0+61')).toEqual(['2', '6', '0', '61']);
    expect(versionParts('1..3+')).toEqual(['1', '', '3', '']);
    expect(versionParts('')).toEqual(['', '', '', '']);
    expect(joinVersion(['2', '6', '0', '61'])).toBe('2.6.0+61');
  });
  it('an empty part: Please enter a value; a part of 5 digits is refused', () => {
    expect(issues({})).toBeUndefined();
    expect(issues({ appVersion: '2..0+61' })).toEqual(['appVersion: Please enter a value']);
    expect(issues({ appVersion: '2.6.0+12345' })).toEqual(['appVersion: Each part of the version can only have up to 4 digits']);
  });
  it('at least one platform', () => {
    expect(issues({ platforms: [] })).toEqual(['platforms: Please select at least one platform']);
  });
  it('the form sends the platforms as a comma list the server accepts, force update 0 by default', () => {
    const body = appVersionCreateScreen.submit.request({ appVersion: '2.6.0+61', platforms: ['ANDROID', 'HUAWEI'], forceUpdate: 0 }, {});
    expect(body).toEqual({ appVersion: '2.6.0+61', platforms: 'ANDROID,HUAWEI', forceUpdate: 0 });
    expect(appVersionCreate.request.safeParse(body).success).toBe(true);
    expect(appVersionCreateScreen.defaults.forceUpdate).toBe(0);
  });
});
