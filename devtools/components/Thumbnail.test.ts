import { describe, expect, it } from "vitest";
import type { NormalizedRequest } from "../../core/formats/index.ts";
import { requestImages } from "./Thumbnail.tsx";

const PNG = "iVBORw0KGgo=";

const request = (images: number): NormalizedRequest =>
  ({
    model: { provider: "openai", model: "gpt-4.1" },
    tools: [],
    messages: Array.from({ length: images }, (_, i) => ({
      role: "user",
      content: [
        { type: "text", text: `picture ${i}` },
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "image", url: "https://example.com/not-inline.png" },
      ],
    })),
  }) as unknown as NormalizedRequest;

describe("requestImages", () => {
  it("lists a request's inline images with their paths, the first `limit` when asked", () => {
    const r = request(60);
    const all = requestImages(r);
    expect(all).toHaveLength(60);
    expect(all.slice(0, 2).map((im) => im.path)).toEqual(["messages[0].content[1]", "messages[1].content[1]"]);
    expect(all.every((im) => im.block.type === "image" && im.block.data === PNG)).toBe(true);
    expect(requestImages(r, 50).map((im) => im.path)).toEqual(all.slice(0, 50).map((im) => im.path));
    expect(requestImages(null)).toEqual([]);
  });

  it("finds them once per request", () => {
    const r = request(3);
    expect(requestImages(r)).toBe(requestImages(r));
    expect(requestImages(request(3))).not.toBe(requestImages(r));
    expect(requestImages(request(2))).toHaveLength(2);
  });
});
