/** Raised when no valid value can be made (an unsupported pattern without an example...). */
export class GenerationError extends Error {}
