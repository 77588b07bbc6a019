// The lowest layer: helpers every other layer shares, each written once. Imports nothing from core.
export { InvalidInputError, StrataError } from "./errors.ts";
export { canonicalJson } from "./canonical.ts";
export { matchGlob } from "./glob.ts";
export { sha256Hex, utf8Bytes } from "./hash.ts";
export { DEFAULT_MAX_JSON_DEPTH, findJsonSyntaxError, lineAndColumn, parseJson } from "./json.ts";
export type { JsonParseResult, JsonSyntaxIssue } from "./json.ts";
export { jsonPathAt } from "./json-path.ts";
export { utf8Length } from "./utf8.ts";
