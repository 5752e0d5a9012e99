/**
 * Demo KYC document images, drawn and encoded as PNG in code (no image files in the repository): an
 * identity card or passport data page, the back of a card, and a selfie. A tiny RGB canvas with
 * rectangles, ellipses and a 5x7 bitmap font, and a PNG encoder (zlib from node:zlib).
 */
import { encodePng } from './png';

export type Rgb = readonly [number, number, number];

/** 5x7 glyphs, one byte per row, the low five bits left to right. */
const FONT: Record<string, readonly number[]> = {
  A: [0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e],
  D: [0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f],
  F: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f],
  H: [0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  J: [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  K: [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
  L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  M: [0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11],
  N: [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  Q: [0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d],
  R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  V: [0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04],
  W: [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a],
  X: [0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11],
  Y: [0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04],
  Z: [0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f],
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  '<': [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02],
  '-': [0, 0, 0, 0x1f, 0, 0, 0],
  '/': [0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10],
  '.': [0, 0, 0, 0, 0, 0x0c, 0x0c],
  ':': [0, 0x0c, 0x0c, 0, 0x0c, 0x0c, 0],
  ',': [0, 0, 0, 0, 0x0c, 0x04, 0x08],
  "'": [0x04, 0x04, 0x08, 0, 0, 0, 0],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

export class Canvas {
  readonly px: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.px = new Uint8Array(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  private set(x: number, y: number, c: Rgb) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    this.px[i] = c[0];
    this.px[i + 1] = c[1];
    this.px[i + 2] = c[2];
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb) {
    for (let j = Math.max(0, y); j < Math.min(this.height, y + h); j++) for (let i = Math.max(0, x); i < Math.min(this.width, x + w); i++) this.set(i, j, c);
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb) {
    for (let j = Math.floor(cy - ry); j <= cy + ry; j++) {
      for (let i = Math.floor(cx - rx); i <= cx + rx; i++) {
        const dx = (i - cx) / rx;
        const dy = (j - cy) / ry;
        if (dx * dx + dy * dy <= 1) this.set(i, j, c);
      }
    }
  }

  /** A vertical gradient from `top` to `bottom`. */
  gradient(x: number, y: number, w: number, h: number, top: Rgb, bottom: Rgb) {
    for (let j = 0; j < h; j++) {
      const t = h <= 1 ? 0 : j / (h - 1);
      const c: Rgb = [0, 1, 2].map((k) => Math.round(top[k] + (bottom[k] - top[k]) * t)) as unknown as Rgb;
      this.rect(x, y + j, w, 1, c);
    }
  }

  /** Text in the 5x7 font, `scale` pixels per dot; unknown characters are blank. Returns the width drawn. */
  text(x: number, y: number, s: string, c: Rgb, scale = 1): number {
    let cx = x;
    for (const ch of s.toUpperCase()) {
      const g = FONT[ch] ?? FONT[' '];
      for (let row = 0; row < 7; row++) for (let col = 0; col < 5; col++) if (g[row] & (1 << (4 - col))) this.rect(cx + col * scale, y + row * scale, scale, scale, c);
      cx += 6 * scale;
    }
    return cx - x;
  }

  /** A head-and-shoulders silhouette in a box (ID photos and selfies). */
  portrait(x: number, y: number, w: number, h: number, skin: Rgb, hair: Rgb, shirt: Rgb) {
    const cx = x + w / 2;
    this.ellipse(cx, y + h * 1.02, w * 0.48, h * 0.38, shirt);
    this.rect(Math.round(cx - w * 0.09), Math.round(y + h * 0.52), Math.round(w * 0.18), Math.round(h * 0.16), skin);
    this.ellipse(cx, y + h * 0.36, w * 0.25, h * 0.2, hair);
    this.ellipse(cx, y + h * 0.42, w * 0.21, h * 0.22, skin);
    this.ellipse(cx - w * 0.08, y + h * 0.4, w * 0.025, h * 0.018, [40, 30, 25]);
    this.ellipse(cx + w * 0.08, y + h * 0.4, w * 0.025, h * 0.018, [40, 30, 25]);
    this.rect(Math.round(cx - w * 0.06), Math.round(y + h * 0.52), Math.round(w * 0.12), Math.max(1, Math.round(h * 0.012)), [150, 80, 70]);
  }

  toPng(): Buffer {
    const rgba = new Uint8Array(this.width * this.height * 4);
    for (let i = 0, j = 0; i < this.px.length; i += 3, j += 4) {
      rgba[j] = this.px[i];
      rgba[j + 1] = this.px[i + 1];
      rgba[j + 2] = this.px[i + 2];
      rgba[j + 3] = 255;
    }
    return encodePng(this.width, this.height, rgba);
  }
}

export interface Person {
  firstName: string;
  lastName: string;
  uidType: string;
  uid: string;
  dateOfBirth: string;
  gender: string;
  address: string;
  /** 0..n: varies skin, hair and shirt colours. */
  look: number;
}

const SKINS: Rgb[] = [
  [141, 85, 36],
  [198, 134, 66],
  [224, 172, 105],
  [161, 102, 56],
  [110, 70, 40],
];
const HAIR: Rgb[] = [
  [25, 20, 20],
  [45, 30, 20],
  [60, 45, 35],
  [20, 20, 25],
];
const SHIRTS: Rgb[] = [
  [40, 70, 140],
  [230, 230, 235],
  [120, 30, 40],
  [30, 100, 80],
  [70, 70, 80],
];

const pick = <T>(list: readonly T[], i: number) => list[Math.abs(i) % list.length];

function isPassport(uidType: string) {
  return /passport/i.test(uidType);
}

/** The front of the identity document: a national identity card, or a passport's data page. */
export function documentFront(p: Person): Buffer {
  const ink: Rgb = [30, 35, 45];
  if (isPassport(p.uidType)) {
    const c = new Canvas(360, 240, [236, 232, 218]);
    c.rect(0, 0, 360, 34, [110, 20, 40]);
    c.text(12, 10, 'PASSPORT', [245, 225, 170], 2);
    c.text(220, 14, 'SRI LANKA', [245, 225, 170]);
    c.rect(14, 48, 92, 112, [214, 222, 230]);
    c.portrait(14, 48, 92, 112, pick(SKINS, p.look), pick(HAIR, p.look + 1), pick(SHIRTS, p.look + 2));
    const rows: [string, string][] = [
      ['SURNAME', p.lastName],
      ['GIVEN NAMES', p.firstName],
      ['DATE OF BIRTH', p.dateOfBirth],
      ['SEX', p.gender === 'Female' ? 'F' : 'M'],
      ['PASSPORT NO', p.uid],
    ];
    rows.forEach(([label, value], i) => {
      c.text(120, 50 + i * 22, label, [120, 110, 100]);
      c.text(120, 59 + i * 22, value.slice(0, 38), ink);
    });
    c.rect(0, 176, 360, 64, [226, 222, 208]);
    const mrz1 = `P<LKA${p.lastName.toUpperCase()}<<${p.firstName.toUpperCase().replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44);
    const mrz2 = `${p.uid.toUpperCase()}<LKA${p.dateOfBirth.replace(/-/g, '').slice(2)}${p.gender === 'Female' ? 'F' : 'M'}`.padEnd(44, '<').slice(0, 44);
    c.text(8, 190, mrz1.slice(0, 57), ink);
    c.text(8, 208, mrz2.slice(0, 57), ink);
    return c.toPng();
  }
  const c = new Canvas(360, 228, [246, 240, 226]);
  c.gradient(0, 0, 360, 40, [196, 120, 40], [150, 70, 30]);
  c.text(12, 8, 'DEMOCRATIC SOCIALIST REPUBLIC OF SRI LANKA', [255, 244, 220]);
  c.text(12, 22, p.uidType.toUpperCase() === 'NIC' ? 'NATIONAL IDENTITY CARD' : p.uidType.toUpperCase(), [255, 244, 220]);
  c.rect(16, 54, 96, 120, [210, 220, 228]);
  c.portrait(16, 54, 96, 120, pick(SKINS, p.look), pick(HAIR, p.look + 1), pick(SHIRTS, p.look + 2));
  c.text(126, 56, 'NO', [130, 110, 90]);
  c.text(126, 66, p.uid, ink, 2);
  c.text(126, 92, 'NAME', [130, 110, 90]);
  c.text(126, 102, `${p.firstName} ${p.lastName}`.slice(0, 38), ink);
  c.text(126, 120, 'DATE OF BIRTH', [130, 110, 90]);
  c.text(126, 130, p.dateOfBirth, ink);
  c.text(126, 148, 'SEX', [130, 110, 90]);
  c.text(126, 158, p.gender, ink);
  c.rect(0, 204, 360, 24, [196, 120, 40]);
  return c.toPng();
}

/** The back of an identity card: address, issue details and a barcode. */
export function documentBack(p: Person): Buffer {
  const ink: Rgb = [30, 35, 45];
  const c = new Canvas(360, 228, [244, 238, 224]);
  c.text(14, 14, 'ADDRESS', [130, 110, 90]);
  const words = p.address.split(' ');
  let line = '';
  let y = 26;
  for (const w of words) {
    if ((line + ' ' + w).trim().length > 52) {
      c.text(14, y, line.trim(), ink);
      y += 12;
      line = '';
    }
    line += ` ${w}`;
  }
  if (line.trim()) c.text(14, y, line.trim(), ink);
  c.text(14, 90, 'DATE OF ISSUE', [130, 110, 90]);
  c.text(14, 100, '2019-03-14', ink);
  c.text(150, 90, 'COMMISSIONER GENERAL', [130, 110, 90]);
  c.rect(150, 102, 120, 2, ink);
  for (let i = 0, x = 14; x < 340; i++) {
    const w = 1 + ((p.uid.charCodeAt(i % p.uid.length) + i * 7) % 3);
    if (i % 2 === 0) c.rect(x, 140, w, 60, ink);
    x += w + 1;
  }
  return c.toPng();
}

/** A selfie: a face against a room background. */
export function selfie(p: Person): Buffer {
  const c = new Canvas(240, 300, [200, 200, 200]);
  c.gradient(
    0,
    0,
    240,
    300,
    pick<Rgb>(
      [
        [190, 205, 220],
        [220, 210, 190],
        [200, 220, 205],
        [215, 215, 225],
      ],
      p.look,
    ),
    [120, 120, 130],
  );
  c.rect(0, 0, 40, 300, [170, 160, 150]);
  c.portrait(20, 30, 200, 270, pick(SKINS, p.look), pick(HAIR, p.look + 1), pick(SHIRTS, p.look + 3));
  return c.toPng();
}
