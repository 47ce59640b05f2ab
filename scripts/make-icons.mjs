#!/usr/bin/env node
// Draws the app and tray icons (resources/icon.png 512x512, resources/tray.png 32x32 and
// tray@2x.png 64x64) with signed distance fields and writes them as PNG with node:zlib, so the
// icons are reproducible without an image editor: `node scripts/make-icons.mjs`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Shapes in a unit square (0..1), as signed distances (negative inside).
const roundedSquare = (x, y, r) => {
  const qx = Math.abs(x - 0.5) - (0.5 - r);
  const qy = Math.abs(y - 0.5) - (0.5 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const circle = (x, y, cx, cy, r) => Math.hypot(x - cx, y - cy) - r;
const ring = (x, y, cx, cy, r, w) => Math.abs(Math.hypot(x - cx, y - cy) - r) - w / 2;
// The upper half of a ring: the message's arc from one chain to the other.
const arc = (x, y, cx, cy, r, w) => (y <= cy ? ring(x, y, cx, cy, r, w) : Math.min(circle(x, y, cx - r, cy, w / 2), circle(x, y, cx + r, cy, w / 2)));

function draw(size, layers) {
  const out = Buffer.alloc(size * size * 4);
  const aa = 1 / size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) / size;
      const y = (py + 0.5) / size;
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const { sdf, color } of layers) {
        const cover = Math.min(1, Math.max(0, 0.5 - sdf(x, y) / aa));
        if (cover === 0) continue;
        const ca = (color[3] / 255) * cover;
        const na = ca + a * (1 - ca);
        r = (color[0] * ca + r * a * (1 - ca)) / na;
        g = (color[1] * ca + g * a * (1 - ca)) / na;
        b = (color[2] * ca + b * a * (1 - ca)) / na;
        a = na;
      }
      const i = (py * size + px) * 4;
      out[i] = Math.round(r);
      out[i + 1] = Math.round(g);
      out[i + 2] = Math.round(b);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return png(size, out);
}

const red = [232, 65, 66, 255]; // Avalanche red
const navy = [22, 27, 45, 255];
const white = [245, 247, 250, 255];
const app = [
  { sdf: (x, y) => roundedSquare(x, y, 0.2), color: navy },
  { sdf: (x, y) => arc(x, y, 0.5, 0.6, 0.27, 0.07), color: red },
  { sdf: (x, y) => circle(x, y, 0.23, 0.6, 0.075), color: white },
  { sdf: (x, y) => circle(x, y, 0.77, 0.6, 0.075), color: white },
  // The message in flight, two thirds of the way along the arc.
  { sdf: (x, y) => circle(x, y, 0.5 + 0.27 * Math.cos(Math.PI / 3), 0.6 - 0.27 * Math.sin(Math.PI / 3), 0.085), color: white },
  { sdf: (x, y) => circle(x, y, 0.5 + 0.27 * Math.cos(Math.PI / 3), 0.6 - 0.27 * Math.sin(Math.PI / 3), 0.05), color: red },
];
// The tray icon is drawn bold on a transparent background so it reads at 16-24 px on any panel.
const tray = [
  { sdf: (x, y) => circle(x, y, 0.5, 0.5, 0.48), color: navy },
  { sdf: (x, y) => arc(x, y, 0.5, 0.62, 0.3, 0.12), color: red },
  { sdf: (x, y) => circle(x, y, 0.2, 0.62, 0.11), color: white },
  { sdf: (x, y) => circle(x, y, 0.8, 0.62, 0.11), color: white },
];

writeFileSync(`${root}resources/icon.png`, draw(512, app));
writeFileSync(`${root}resources/tray.png`, draw(32, tray));
writeFileSync(`${root}resources/tray@2x.png`, draw(64, tray));
console.log('wrote resources/icon.png, resources/tray.png, resources/tray@2x.png');
