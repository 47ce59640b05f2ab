import { afterEach } from 'vitest';

/**
 * A test file's way to close what each test opens: `const closing = closedAfterEach();` at the top,
 * then `const on = closing(await engineOnService(...))` in a test; everything it was given is closed
 * after that test, last opened first, even when the test failed.
 */
export function closedAfterEach(): <T extends { close(): unknown }>(resource: T) => T {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const r of open.splice(0).reverse()) await r.close();
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}
