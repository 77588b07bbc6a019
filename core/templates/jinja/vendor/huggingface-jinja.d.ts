// Types of huggingface-jinja.js: the package's own (the code is the package's, see e2e/vendor/jinja.mjs).
export * from "@huggingface/jinja";
