/**
 * Reading a paste without blocking the page. `clipboardData.getData()` in a paste event reads the
 * clipboard synchronously: about 380 ms of main thread for a 20 MB request. The async Clipboard
 * API reads it in the browser process (the page only builds the string, some 70 ms), but asking
 * for it prompts the user unless the site already holds the `clipboard-read` permission. So it is
 * used only while the Permissions API says `granted`, and only for a real (trusted) paste.
 */

let granted = false;
let watching = false;

/** Starts following the `clipboard-read` permission (once; a no-op where the API is missing). */
export function watchClipboardPermission(): void {
  if (watching) return;
  watching = true;
  const permissions = typeof navigator === "undefined" ? undefined : navigator.permissions;
  if (!permissions || typeof navigator.clipboard?.readText !== "function") return;
  permissions
    .query({ name: "clipboard-read" as PermissionName })
    .then((status) => {
      granted = status.state === "granted";
      status.addEventListener("change", () => {
        granted = status.state === "granted";
      });
    })
    .catch(() => {
      // a browser that does not know the permission: keep the synchronous read
    });
}

/** The clipboard's text read off the main thread, or null when that would prompt (read the event's data instead). */
export function readPasteAsync(event: { readonly nativeEvent: Event }): Promise<string> | null {
  if (!granted || !event.nativeEvent.isTrusted) return null;
  try {
    return navigator.clipboard.readText();
  } catch {
    return null;
  }
}
