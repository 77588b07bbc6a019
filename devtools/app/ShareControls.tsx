import { useState } from "react";
import { useInspection } from "../inspect/useInspection.ts";
import { buildBundleLink, buildShareLink, type ShareLink } from "../share/links.ts";

type Shown = { readonly kind: "full" | "hash-only"; readonly link: ShareLink; readonly copied: boolean };

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** "Share link" (whole input, compressed into the fragment) and "Hash-only link" (fingerprints, no text). */
export function ShareControls() {
  const { query: inspection } = useInspection();
  const bundle = inspection.data?.report.fingerprints ?? null;
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (kind: Shown["kind"], build: () => Promise<ShareLink>) => {
    setBusy(true);
    try {
      const link = await build();
      const copied = link.ok ? await copy(link.url) : false;
      setShown({ kind, link, copied });
    } catch (error) {
      setShown({ kind, link: { ok: false, reason: `Could not build the link: ${String(error)}` }, copied: false });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="share">
      <button
        type="button"
        data-testid="share-link"
        disabled={busy}
        onClick={() => run("full", buildShareLink)}
        title="Copy a link that carries the whole input; it stays in the URL fragment and is never sent to a server"
      >
        Share link
      </button>
      <button
        type="button"
        data-testid="share-hash-only"
        disabled={busy || bundle === null}
        onClick={() => bundle && run("hash-only", () => buildBundleLink(bundle))}
        title="Copy a link with segment hashes and sizes only: no prompt text"
      >
        Hash-only link
      </button>
      {shown ? (
        <div
          className="share-panel"
          data-testid="share-panel"
          role="dialog"
          aria-label="Share link"
          onKeyDown={(e) => e.key === "Escape" && setShown(null)}
        >
          {shown.link.ok ? (
            <>
              <p data-testid="share-status">
                {shown.kind === "full" ? "Link with the whole input" : "Hash-only link (no prompt text)"}
                {shown.copied ? " copied to the clipboard." : ": copy it from the field below."}
              </p>
              <input
                readOnly
                autoFocus
                data-testid="share-url"
                value={shown.link.url}
                onFocus={(e) => e.currentTarget.select()}
                aria-label="Share URL"
              />
            </>
          ) : (
            <p className="error" data-testid="share-status">
              {shown.link.reason}
            </p>
          )}
          <button type="button" data-testid="share-close" onClick={() => setShown(null)}>
            Close
          </button>
        </div>
      ) : null}
    </div>
  );
}
