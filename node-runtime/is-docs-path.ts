/**
 * The paths the /docs page answers (`docsPage`): `/` and everything under `/docs`. Its own
 * module so that servers which load Express only for the page can route without it.
 */
export function isDocsPath(path: string): boolean {
  return path === '/' || path === '/docs' || path.startsWith('/docs/');
}
