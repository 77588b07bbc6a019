/**
 * Stands in for "tinyrainbow" (the color helper @vitest/expect and @vitest/utils use)
 * in the runtime bundles. The real module sniffs `process.env` at import time, which
 * Deno without `--allow-env` refuses; runners print plain text anyway.
 */
interface Formatter {
  (input?: unknown): string;
  open: string;
  close: string;
}
const plain: Formatter = Object.assign((input?: unknown) => String(input), { open: "", close: "" });
const styles = [
  "reset",
  "bold",
  "dim",
  "italic",
  "underline",
  "inverse",
  "hidden",
  "strikethrough",
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "gray",
  "bgBlack",
  "bgRed",
  "bgGreen",
  "bgYellow",
  "bgBlue",
  "bgMagenta",
  "bgCyan",
  "bgWhite",
  "blackBright",
  "redBright",
  "greenBright",
  "yellowBright",
  "blueBright",
  "magentaBright",
  "cyanBright",
  "whiteBright",
  "bgBlackBright",
  "bgRedBright",
  "bgGreenBright",
  "bgYellowBright",
  "bgBlueBright",
  "bgMagentaBright",
  "bgCyanBright",
  "bgWhiteBright",
] as const;
const colors: Record<string, unknown> = {
  isColorSupported: false,
  rgb: () => plain,
  bgRgb: () => plain,
  hex: () => plain,
  bgHex: () => plain,
};
for (const style of styles) colors[style] = plain;

export default colors;
export const createColors = () => colors;
export const getDefaultColors = () => colors;
export const isSupported = () => false;
export const disableDefaultColors = () => {};
export const enabledDefaultColors = () => {};
