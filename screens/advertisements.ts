/** Advertisements: list, create and edit (spec 002 §2 "Advertisements list", "Advertisement create / edit"). */
import { defineFormScreen, defineListScreen, type FieldContext } from '../src/definitions/definitions';
import { recordFromForm, statusRadio } from '../src/definitions/records';
import {
  ALL_COUNTRIES,
  advertisementApprove,
  advertisementCreate,
  advertisementEdit,
  advertisementFormSchema,
  advertisementGetForEdit,
  advertisementInitialData,
  advertisementLimits,
  advertisementList,
  advertisementMessages,
  VALID_FROM_TIME,
  VALID_TO_TIME,
  type AdvertisementBody,
  type AdvertisementRow,
  type AdvertisementValues,
} from '../src/api/advertisements';
import { advertisementImageRule } from '../src/api/imageUpload';
import type { DataOf } from '../src/api/contract';
import { isLocked, isUnlocked } from '../src/domain/guards';

export const advertisementsScreen = defineListScreen<AdvertisementRow>()({
  kind: 'list',
  id: 'advertisements',
  pinnedColumns: ['id', 'title'],
  route: '/advertisements',
  title: 'Advertisements',
  breadcrumb: [{ label: 'Advertisements' }],
  access: { anyOf: ['advertisement-view'] },
  menu: { section: 'Administrator', label: 'Advertisements', order: 50 },
  source: { call: advertisementList, request: () => ({}), rows: (d) => d.advertisements, changeRequests: (d) => d.changeRequests },
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'title', header: 'Title' },
    { key: 'countries', header: 'Countries', kind: 'tags' },
    { key: 'valid_from', header: 'Valid From', kind: 'datetime' },
    { key: 'valid_to', header: 'Valid To', kind: 'datetime' },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 5,
  createButton: { label: 'Create Advertisement', permission: 'advertisement-create', to: '/advertisements/create' },
  changeRequests: { permission: 'advertisement-approve', approve: advertisementApprove, entity: 'Advertisement' },
  lockedWhen: isLocked,
  rowActions: [{ id: 'edit', label: 'Edit', permission: 'advertisement-edit', when: isUnlocked, run: { kind: 'navigate', to: (row) => `/advertisements/edit/${row.id}` } }],
});

type AdvertisementOptions = DataOf<typeof advertisementInitialData>;
/** The form's values: the advertisement form schema's (src/api/advertisements.ts). */
export type AdvertisementFormValues = AdvertisementValues;

/** The countries offered: ALL first, then each country by name. */
export function countryOptionsFor({ options }: FieldContext<AdvertisementFormValues, AdvertisementOptions>) {
  return (options?.countries ?? []).map((c) => ({ value: c.code, label: c.code === ALL_COUNTRIES ? c.name : `${c.name} (${c.code})` }));
}

/** Five slots: the images as loaded, then empty ones. */
export function imageSlotsOf(images: readonly { image: string; link: string }[]): { image: string; link: string }[] {
  return Array.from({ length: advertisementLimits.images }, (_, i) => ({ image: images[i]?.image ?? '', link: images[i]?.link ?? '' }));
}

/** The request body from the form: the days with their times, only the slots that hold an image. */
export function advertisementBody(v: AdvertisementFormValues): AdvertisementBody {
  return {
    title: v.title,
    countries: v.countries,
    valid_from: `${v.valid_from}${VALID_FROM_TIME}`,
    valid_to: `${v.valid_to}${VALID_TO_TIME}`,
    images: v.images.filter((s) => s.image).map((s) => ({ image: s.image, link: s.link })),
    disabled: v.disabled,
  };
}

const advertisementFields = [
  { kind: 'text', key: 'title', label: 'Name', required: true, maxLength: advertisementLimits.title, approval: { header: 'Title' } },
  { kind: 'tags', key: 'countries', label: 'Countries', required: true, options: countryOptionsFor, exclusive: ALL_COUNTRIES },
  { kind: 'date', key: 'valid_from', label: 'Valid From', required: true },
  { kind: 'date', key: 'valid_to', label: 'Valid To', required: true, follows: 'valid_from' },
  {
    kind: 'imageSlots',
    key: 'images',
    label: 'Images',
    required: true,
    count: advertisementLimits.images,
    image: {
      formats: advertisementImageRule.formats,
      maxBytes: advertisementImageRule.maxBytes,
      toPng: { maxWidth: 600, maxHeight: 900 },
      width: 200,
      height: 300,
      invalidMessage: advertisementMessages.invalidImage,
    },
    linkLabel: 'Link',
    linkMaxLength: advertisementLimits.link,
    approval: { links: { name: 'links', header: 'Links' } },
  },
  statusRadio,
] as const;

/** An advertisement as its change requests show it: the form's fields. */
export const advertisementRecord = recordFromForm('Advertisement', advertisementFields);

const emptyAdvertisement: AdvertisementFormValues = { title: '', countries: [], valid_from: '', valid_to: '', images: imageSlotsOf([]), disabled: 0 };

export const advertisementCreateScreen = defineFormScreen<AdvertisementFormValues, AdvertisementOptions>()({
  kind: 'form',
  mode: 'create',
  id: 'advertisements.create',
  route: '/advertisements/create',
  title: 'Create Advertisement',
  breadcrumb: [{ label: 'Advertisements', to: '/advertisements' }, { label: 'Create' }],
  access: { anyOf: ['advertisement-create'] },
  schema: advertisementFormSchema,
  defaults: emptyAdvertisement,
  fields: advertisementFields,
  options: { call: advertisementInitialData, select: (d) => d },
  submit: { call: advertisementCreate, request: (v) => advertisementBody(v) },
  messages: { success: 'Advertisement sent for approval', failure: 'Advertisement save failed!.' },
  back: '/advertisements',
});

export const advertisementEditScreen = defineFormScreen<AdvertisementFormValues, AdvertisementOptions>()({
  kind: 'form',
  mode: 'edit',
  id: 'advertisements.edit',
  route: '/advertisements/edit/$id',
  title: 'Edit Advertisement',
  breadcrumb: [{ label: 'Advertisements', to: '/advertisements' }, { label: 'Edit' }],
  access: { anyOf: ['advertisement-edit'] },
  schema: advertisementFormSchema,
  defaults: emptyAdvertisement,
  fields: advertisementFields,
  options: { call: advertisementInitialData, select: (d) => d },
  load: {
    call: advertisementGetForEdit,
    request: (p) => ({ id: Number(p.id) }),
    values: (d) => {
      const a = d.advertisement;
      return {
        title: a.title,
        countries: a.countries,
        valid_from: a.valid_from.slice(0, 10),
        valid_to: a.valid_to.slice(0, 10),
        images: imageSlotsOf(a.images),
        disabled: a.disabled === 1 ? 1 : 0,
      };
    },
  },
  submit: { call: advertisementEdit, request: (v, p) => ({ id: Number(p.id), ...advertisementBody(v) }) },
  messages: { success: 'Advertisement sent for approval', failure: 'Advertisement save failed!.' },
  back: '/advertisements',
});
