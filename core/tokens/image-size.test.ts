import { describe, expect, it } from "vitest";
import { gifBase64, jpegBase64, pngBase64, webpBase64 } from "../test-support/images.ts";
import { imageSizeFromBase64, MAX_JPEG_SEGMENTS } from "./image-size.ts";

describe("imageSizeFromBase64", () => {
  it.each([
    ["png", pngBase64(1024, 768)],
    ["jpeg", jpegBase64(1024, 768)],
    ["gif", gifBase64(1024, 768)],
    ["webp", webpBase64(1024, 768, "VP8")],
    ["webp", webpBase64(1024, 768, "VP8L")],
    ["webp", webpBase64(1024, 768, "VP8X")],
  ] as const)("reads a %s header's size without decoding the image", (format, data) => {
    expect(imageSizeFromBase64(data)).toEqual({ ok: true, format, width: 1024, height: 768 });
  });

  it("reads large and tiny sizes (WebP VP8X up to 16 million px per side)", () => {
    expect(imageSizeFromBase64(webpBase64(20_000, 3, "VP8X"))).toMatchObject({ width: 20_000, height: 3 });
    expect(imageSizeFromBase64(pngBase64(1, 1))).toMatchObject({ width: 1, height: 1 });
    expect(imageSizeFromBase64(jpegBase64(65_535, 2))).toMatchObject({ width: 65_535, height: 2 });
  });

  it("accepts a data URL, line breaks in the base64 and the base64url alphabet", () => {
    const data = pngBase64(300, 200);
    expect(imageSizeFromBase64(`data:image/png;base64,${data}`)).toMatchObject({ width: 300, height: 200 });
    expect(imageSizeFromBase64(data.replace(/(.{16})/g, "$1\n"))).toMatchObject({ width: 300, height: 200 });
    expect(imageSizeFromBase64(data.replaceAll("+", "-").replaceAll("/", "_"))).toMatchObject({ width: 300 });
  });

  it("reports why instead of guessing when the data is not a readable image", () => {
    expect(imageSizeFromBase64("")).toEqual({ ok: false, reason: "its data is empty or not base64" });
    expect(imageSizeFromBase64(btoa("%PDF-1.4 not an image"))).toMatchObject({ ok: false });
    expect(imageSizeFromBase64(pngBase64(10, 10).slice(0, 20))).toMatchObject({ ok: false });
    expect(imageSizeFromBase64(btoa("\xff\xd8\xff\xda\x00\x02"))).toEqual({
      ok: false,
      reason: "its JPEG data has no frame header before the image data",
    });
    expect(imageSizeFromBase64(btoa("RIFF\0\0\0\0WEBPXXXX"))).toMatchObject({ ok: false });
  });

  it("stops after a bounded number of JPEG segments", () => {
    const segment = "\xff\xe2\x00\x02";
    const data = btoa(`\xff\xd8${segment.repeat(MAX_JPEG_SEGMENTS + 5)}`);
    expect(imageSizeFromBase64(data)).toEqual({
      ok: false,
      reason: `no JPEG frame header in its first ${MAX_JPEG_SEGMENTS} segments`,
    });
  });
});
