/** Mobile app versions (spec 002 §2 "App Versions", §3, §5, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody } from './contract';

export const platforms = ['ANDROID', 'IOS', 'HUAWEI'] as const;
export type Platform = (typeof platforms)[number];
export const platformLabels: Record<Platform, string> = { ANDROID: 'Android', IOS: 'IOS', HUAWEI: 'Huawei' };

export const appVersionMessages = {
  part: 'Please enter a value',
  version: 'Each part of the version can only have up to 4 digits',
  platforms: 'Please select at least one platform',
} as const;

/** major.minor.patch+build, each part 1 to 4 digits (spec 002 §5, §9). */
export const VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}\+\d{1,4}$/;
export const versionLimits = { parts: 4, digits: 4 } as const;

/** The four parts of a version text ('1.2.3+4' → ['1','2','3','4']); missing parts are ''. */
export function versionParts(value: string): string[] {
  const m = /^([^.+]*)(?:\.([^.+]*))?(?:\.([^.+]*))?(?:\+(.*))?$/.exec(value);
  const parts = m ? [m[1], m[2], m[3], m[4]].map((p) => p ?? '') : ['', '', '', ''];
  return parts;
}

export function joinVersion(parts: readonly string[]): string {
  return `${parts[0] ?? ''}.${parts[1] ?? ''}.${parts[2] ?? ''}+${parts[3] ?? ''}`;
}

export const versionField = z
  .string()
  .max(40, appVersionMessages.version)
  .superRefine((v, ctx) => {
    const parts = versionParts(v);
    if (parts.some((p) => p === '')) ctx.addIssue({ code: 'custom', message: appVersionMessages.part });
    else if (!VERSION_PATTERN.test(v)) ctx.addIssue({ code: 'custom', message: appVersionMessages.version });
  })
  .meta({ pattern: VERSION_PATTERN.source });

/** The platforms as the form holds them: a list, at least one, no repeats. */
export const platformList = z
  .array(z.enum(platforms, { error: 'unknown platform' }))
  .min(1, appVersionMessages.platforms)
  .refine((l) => new Set(l).size === l.length, 'a platform is listed twice');

/** The platforms on the wire: a comma list of ANDROID, IOS, HUAWEI. */
export const platformCommaList = z
  .string()
  .max(100)
  .superRefine((v, ctx) => {
    const list = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (list.length === 0) return void ctx.addIssue({ code: 'custom', message: appVersionMessages.platforms });
    for (const p of list) if (!(platforms as readonly string[]).includes(p)) ctx.addIssue({ code: 'custom', message: `unknown platform ${p.slice(0, 20)}` });
    if (new Set(list).size !== list.length) ctx.addIssue({ code: 'custom', message: 'a platform is listed twice' });
  })
  // in the published document: one to three of them, comma-separated, none twice
  .meta({ pattern: `^(?!.*\\b(${platforms.join('|')})\\b.*\\b\\1\\b) *(${platforms.join('|')})( *, *(${platforms.join('|')}))* *$` });

export function splitPlatforms(v: string): Platform[] {
  return v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean) as Platform[];
}

const forceUpdate = z.union([z.literal(0), z.literal(1)]);

export const appVersionFormSchema = z.strictObject({ appVersion: versionField, platforms: platformList, forceUpdate });

export const appVersionRow = z.object({
  id: z.number(),
  version: z.string(),
  platforms: z.array(z.string()),
  force_update: z.number(),
  locked: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AppVersionRow = z.infer<typeof appVersionRow>;

export const appVersionList = defineCall({
  path: 'appVersion/list',
  access: anyOf('app-version-view'),
  summary: 'Every app version, newest first, with pending change requests.',
  request: emptyBody,
  data: z.object({ changeRequests: z.array(changeRequest), list: z.array(appVersionRow) }),
});

export const appVersionCreate = defineCall({
  path: 'appVersion/create',
  answers: [422],
  access: anyOf('app-version-create'),
  summary: 'Request a new app version (a CREATE change request): version major.minor.patch+build, platforms as a comma list.',
  request: z.strictObject({ appVersion: versionField, platforms: platformCommaList, forceUpdate }),
  data: z.object({ message: z.string(), changeRequestId: z.number() }),
});

export const appVersionApprove = defineCall({
  path: 'appVersion/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('app-version-approve'),
  summary: 'Approve or reject a pending app version change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const appVersionCalls = [appVersionList, appVersionCreate, appVersionApprove] as const;
