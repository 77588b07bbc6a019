export declare const CHROMIUM_ARGS: readonly string[];
export declare function resolveChromium(): string | undefined;
