/**
 * A request the query engine refuses (a path that is not the repository's, an
 * unknown object or file, a range past the end); `code` is how the API
 * answers it. Its own module, free of imports, so clients that only route
 * requests can tell it apart without loading the engine.
 */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(readonly code: 'invalid-request' | 'not-found' | 'forbidden-path', message: string) {
    super(message);
  }
}
