/** Advertisements shown in the mobile app (spec 002 §2 "Advertisements", §3, §5, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody, dateBoundsError, inDateBounds, MAX_ID, wireDate } from './contract';
import { advertisementImageRule, imageFieldFacts, pixelProblemOf, readImageValue, withinPixelBudget } from './imageUpload';
import { patterns } from '../domain/validation';

export const advertisementMessages = {
  title: 'Name can only have alphanumeric characters and should be at least 2 characters long',
  countries: 'Please select at least one country',
  countryTwice: 'A country cannot be added twice',
  allWithOthers: 'ALL already covers every country',
  validFrom: 'Please select Valid From',
  validTo: 'Please select Valid To',
  toBeforeFrom: 'Valid To cannot be before Valid From',
  images: 'Please select at least one image',
  link: 'Please enter a valid URL',
  invalidImage: 'Uploaded image is not valid',
} as const;

export const advertisementLimits = { title: 100, link: 512, images: 5 } as const;

/** The value meaning every country. */
export const ALL_COUNTRIES = 'ALL';
/** Start and end of a validity day on the wire (spec 002 §9). */
export const VALID_FROM_TIME = 'T00:00:01';
export const VALID_TO_TIME = 'T23:59:59';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day 'yyyy-MM-dd'. */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) && Number(m[1]) >= 2000;
}

const titleField = z
  .string()
  .max(advertisementLimits.title, advertisementMessages.title)
  .regex(/^[\w ]{2,}$/, advertisementMessages.title);
const countriesField = z
  .array(z.string().regex(/^[A-Z]{2,3}$/, 'unknown country code'))
  .min(1, advertisementMessages.countries)
  .max(300);
const linkField = z.string().max(advertisementLimits.link, advertisementMessages.link).regex(patterns.website, advertisementMessages.link);
const imageValue = z
  .string()
  .refine((v) => readImageValue(v, advertisementImageRule) !== null, advertisementMessages.invalidImage)
  .refine(...withinPixelBudget(advertisementImageRule))
  .meta(imageFieldFacts(advertisementImageRule));
const disabledField = z.union([z.literal(0), z.literal(1)]);

function checkCountries(countries: readonly string[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  countries.forEach((c, i) => {
    if (seen.has(c)) ctx.addIssue({ code: 'custom', path: ['countries', i], message: advertisementMessages.countryTwice });
    seen.add(c);
  });
  if (seen.has(ALL_COUNTRIES) && seen.size > 1) ctx.addIssue({ code: 'custom', path: ['countries'], message: advertisementMessages.allWithOthers });
}

/** The request of create (and, with id, of edit): dates as T00:00:01 / T23:59:59, 1 to 5 images, base64 PNG or the stored path. */
const advertisementShape = {
  title: titleField,
  countries: countriesField,
  valid_from: z
    .string()
    .refine((v) => v.endsWith(VALID_FROM_TIME) && isCalendarDay(v.slice(0, 10)) && v.length === 19, advertisementMessages.validFrom)
    .refine(inDateBounds, dateBoundsError)
    .meta(wireDate('valid-from')),
  valid_to: z
    .string()
    .refine((v) => v.endsWith(VALID_TO_TIME) && isCalendarDay(v.slice(0, 10)) && v.length === 19, advertisementMessages.validTo)
    .refine(inDateBounds, dateBoundsError)
    .meta(wireDate('valid-to')),
  images: z
    .array(z.strictObject({ image: imageValue, link: linkField }))
    .min(1, advertisementMessages.images)
    .max(advertisementLimits.images, `at most ${advertisementLimits.images} images`),
  disabled: disabledField,
};

function checkAdvertisement(v: { countries: string[]; valid_from: string; valid_to: string }, ctx: z.RefinementCtx) {
  checkCountries(v.countries, ctx);
  const [from, to] = [v.valid_from.slice(0, 10), v.valid_to.slice(0, 10)];
  if (isCalendarDay(from) && isCalendarDay(to) && to < from) ctx.addIssue({ code: 'custom', path: ['valid_to'], message: advertisementMessages.toBeforeFrom });
}

export const advertisementCreateBody = z.strictObject(advertisementShape).superRefine(checkAdvertisement);
export const advertisementEditBody = z.strictObject({ id: z.number().int().positive().max(MAX_ID), ...advertisementShape }).superRefine(checkAdvertisement);

/** The form: dates as days, five image slots (empty ones allowed), the same rules and messages. */
export const advertisementFormSchema = z
  .strictObject({
    title: titleField,
    countries: countriesField,
    valid_from: z.string().refine(isCalendarDay, advertisementMessages.validFrom).refine(inDateBounds, dateBoundsError),
    valid_to: z.string().refine(isCalendarDay, advertisementMessages.validTo).refine(inDateBounds, dateBoundsError),
    images: z.array(z.object({ image: z.string(), link: z.string() })).max(advertisementLimits.images),
    disabled: disabledField,
  })
  .superRefine((v, ctx) => {
    checkCountries(v.countries, ctx);
    if (isCalendarDay(v.valid_from) && isCalendarDay(v.valid_to) && v.valid_to < v.valid_from) {
      ctx.addIssue({ code: 'custom', path: ['valid_to'], message: advertisementMessages.toBeforeFrom });
    }
    let filled = 0;
    v.images.forEach((slot, i) => {
      if (!slot.image) return;
      filled += 1;
      if (readImageValue(slot.image, advertisementImageRule) === null) ctx.addIssue({ code: 'custom', path: ['images', i, 'image'], message: advertisementMessages.invalidImage });
      const tooLarge = pixelProblemOf(slot.image, advertisementImageRule);
      if (tooLarge) ctx.addIssue({ code: 'custom', path: ['images', i, 'image'], message: tooLarge });
      if (!linkField.safeParse(slot.link).success) ctx.addIssue({ code: 'custom', path: ['images', i, 'link'], message: advertisementMessages.link });
    });
    if (filled === 0) ctx.addIssue({ code: 'custom', path: ['images'], message: advertisementMessages.images });
  });

/** An advertisement as the form holds it: days 'yyyy-MM-dd', five image slots (image '' when empty). */
export type AdvertisementValues = z.output<typeof advertisementFormSchema>;
/** An advertisement as create takes it (edit adds the id): dates with their times, only the filled slots. */
export type AdvertisementBody = z.output<typeof advertisementCreateBody>;

export const advertisementImage = z.object({ image: z.string(), link: z.string() });

export const advertisementRow = z.object({
  id: z.number(),
  title: z.string(),
  countries: z.array(z.string()),
  valid_from: z.string(),
  valid_to: z.string(),
  /** Each image's stored path (served by GET /<path>) and its link. */
  images: z.array(advertisementImage),
  disabled: z.number(),
  status: z.string(),
  locked: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdvertisementRow = z.infer<typeof advertisementRow>;

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const advertisementList = defineCall({
  path: 'advertisement/list',
  access: anyOf('advertisement-view'),
  summary: 'Every advertisement, with pending change requests.',
  request: emptyBody,
  data: z.object({ advertisements: z.array(advertisementRow), changeRequests: z.array(changeRequest) }),
});

export const advertisementInitialData = defineCall({
  path: 'advertisement/initial-create-data',
  access: anyOf('advertisement-create', 'advertisement-edit'),
  summary: 'The countries an advertisement may target, ALL (every country) first.',
  request: emptyBody,
  data: z.object({ countries: z.array(z.object({ code: z.string(), name: z.string() })) }),
});

export const advertisementCreate = defineCall({
  path: 'advertisement/create',
  answers: [422],
  access: anyOf('advertisement-create'),
  summary: 'Request a new advertisement (a CREATE change request); its images are stored at once and used if approved.',
  request: advertisementCreateBody,
  data: sentForApproval,
});

export const advertisementGetForEdit = defineCall({
  path: 'advertisement/get-for-edit',
  answers: [404],
  access: anyOf('advertisement-edit'),
  summary: 'One advertisement, shaped for the edit form (images as their stored paths).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID) }),
  data: z.object({ advertisement: advertisementRow }),
});

export const advertisementEdit = defineCall({
  path: 'advertisement/edit',
  answers: [404, 409, 422],
  access: anyOf('advertisement-edit'),
  summary: 'Request a change to an advertisement (an EDIT change request); an unchanged image is sent back as its stored path.',
  request: advertisementEditBody,
  data: sentForApproval,
});

export const advertisementApprove = defineCall({
  path: 'advertisement/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('advertisement-approve'),
  summary: 'Approve or reject a pending advertisement change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const advertisementCalls = [advertisementList, advertisementInitialData, advertisementCreate, advertisementGetForEdit, advertisementEdit, advertisementApprove] as const;
