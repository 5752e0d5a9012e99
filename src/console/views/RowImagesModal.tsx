/** The images of a row in a dialog (row action kind 'images'), e.g. 'User Images': selfie, UID front, UID back. */
import type { ImageOfRow } from '../../definitions/definitions';
import { Button, Modal } from '../ui/primitives';
import { imageUrl, PLACEHOLDER_IMAGE } from './cells';

/** The images the dialog shows: optional ones only when the row has them. */
export function imagesToShow<Row>(images: readonly ImageOfRow<Row>[], row: Record<string, unknown>): { label: string; src: string; missing: boolean }[] {
  return images.flatMap((i) => {
    const src = imageUrl(row[i.key]);
    if (!src && i.optional) return [];
    return [{ label: i.label, src: src ?? PLACEHOLDER_IMAGE, missing: !src }];
  });
}

export function RowImagesModal<Row>({ title, images, row, close }: { title: string; images: readonly ImageOfRow<Row>[]; row: Record<string, unknown>; close: () => void }) {
  const shown = imagesToShow(images, row);
  return (
    <Modal open wide onOpenChange={(o) => !o && close()} title={title} footer={<Button onClick={close}>Close</Button>}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {shown.map((i) => (
          <figure key={i.label} className="flex flex-col gap-2 rounded-md border border-line p-3">
            <figcaption className="text-sm font-medium">{i.label}</figcaption>
            <img
              src={i.src}
              alt={i.missing ? `${i.label}: no image` : i.label}
              className="h-56 w-full rounded bg-muted object-contain"
              onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)}
            />
          </figure>
        ))}
      </div>
    </Modal>
  );
}
