/** A node's failure with a code of its descriptor's `errors` (or the engine's own). */
export class NodeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NodeError';
  }
}
