// readQrImage in Chromium: QR codes generated as PNG files by the qrcode package (the app's own
// encoder) are read back through createImageBitmap, an OffscreenCanvas and jsQR, as a picked file
// would be; a large photo-sized image is scaled down first and still reads.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { parseTotp, QR_ERRORS, readQrImage, totpNow } from './totp.ts';

const URI =
  'otpauth://totp/Example:alice%40example.com?issuer=Example&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30';

const pngOf = async (text: string, options: QRCode.QRCodeToDataURLOptions = {}) =>
  (await fetch(await QRCode.toDataURL(text, options))).blob();

/** A PNG of `size` × `size` pixels painted by `paint` on a canvas. */
async function canvasPng(size: number, paint: (ctx: OffscreenCanvasRenderingContext2D) => void) {
  const canvas = new OffscreenCanvas(size, size);
  paint(canvas.getContext('2d')!);
  return canvas.convertToBlob({ type: 'image/png' });
}

describe('readQrImage', () => {
  it('reads the otpauth URI of a generated PNG QR code, which parseTotp then accepts', async () => {
    const png = await pngOf(URI, { errorCorrectionLevel: 'M', margin: 4, scale: 4 });
    expect(png.type).toBe('image/png');
    const text = await readQrImage(png);
    expect(text).toBe(URI);
    const parsed = parseTotp(text);
    expect(parsed.uri).toBe(URI);
    expect(totpNow(parsed.uri!, 59_000).code).toBe('287082');
  });

  it('reads a light-on-dark QR code in a large image, scaled down before scanning', async () => {
    const qr = await createImageBitmap(
      await pngOf(URI, { margin: 4, scale: 10, color: { dark: '#eeeeeeff', light: '#111111ff' } }),
    );
    const png = await canvasPng(3000, (ctx) => {
      ctx.fillStyle = '#111';
      ctx.fillRect(0, 0, 3000, 3000);
      ctx.drawImage(qr, 500, 700, 1500, 1500);
    });
    expect(await readQrImage(png)).toBe(URI);
  });

  it('reads a QR code on a transparent background', async () => {
    const png = await pngOf(URI, { margin: 2, scale: 5, color: { light: '#00000000' } });
    expect(await readQrImage(png)).toBe(URI);
  });

  it('says so for an image without a QR code, and for a file that is not an image', async () => {
    const blank = await canvasPng(200, (ctx) => {
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, 200, 200);
    });
    await expect(readQrImage(blank)).rejects.toThrow(QR_ERRORS.none);
    await expect(readQrImage(new Blob(['not an image'], { type: 'text/plain' }))).rejects.toThrow(
      QR_ERRORS.unreadable,
    );
  });
});
