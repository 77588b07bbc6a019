/**
 * Shape checks for host-supplied values. Each failure is an `InvalidInputError` whose `field`
 * is the path to the bad value (`history[3].content[0].text`). The message checks are shared
 * with the wire converters and cache analysis: they live in messages/validate.ts.
 */
export {
  assertContent,
  assertContentBlock,
  assertMessage,
  assertMessages,
  describeValue,
  expectArray,
  expectOptionalString,
  expectString,
  isObject,
} from "../messages/validate.ts";
