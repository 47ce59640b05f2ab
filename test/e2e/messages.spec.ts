import { chainsOf } from '../../src/shared/chains';
import type { MessagePage } from '../../src/shared/contract';
import { rawRecord } from '../../src/shared/messages';
import { expect, inputsSent, screenshot, test } from './fixtures';

const rowIds = (page: import('@playwright/test').Page) =>
  page.getByTestId('message-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-message-id')));

test('shows the simulated demo data and pages through it with cursors', async ({ openApp }) => {
  const page = await openApp('#/messages');
  await expect(page.getByTestId('demo-banner')).toContainText('Simulated demo data from the local service');
  await expect(page.getByTestId('message-row')).toHaveCount(10);
  await expect(page.getByTestId('page-number')).toHaveText('Page 1');
  await expect(page.getByTestId('page-prev')).toBeDisabled();
  // The launch token leaves the address bar once the page has it.
  expect(page.url()).not.toContain('token=');
  await screenshot(page, 'messages');

  const first = await rowIds(page);
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 2');
  await expect(page.getByTestId('message-row')).toHaveCount(10);
  // The label can change before the rows re-render: wait for the rows of the new page.
  await expect.poll(async () => (await rowIds(page)).filter((id) => first.includes(id))).toEqual([]);
  const second = await rowIds(page);
  expect(second).toHaveLength(10);

  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 3');
  await page.getByTestId('page-prev').click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 2');
  await expect.poll(() => rowIds(page)).toEqual(second);
});

test('filters by sender and page size', async ({ openApp, stack }) => {
  const page = await openApp('#/messages');
  await expect(page.getByTestId('message-row')).toHaveCount(10);

  // A sender with several messages, from the data source itself.
  const sample = await stack.call<MessagePage>('browseMessages', { network: 'mainnet', pageSize: 50 });
  const counts = new Map<string, number>();
  for (const m of sample.messages.map(rawRecord)) counts.set(String(m.from), (counts.get(String(m.from)) ?? 0) + 1);
  const from = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];

  await page.getByTestId('filter-from').fill(from);
  await page.getByTestId('filter-page-size').fill('5');
  await page.getByTestId('filter-apply').click();
  const rows = page.getByTestId('message-row');
  const senders = () => rows.evaluateAll((els) => els.map((r) => r.querySelector('[data-kind="address"]')?.getAttribute('data-full')));
  await expect.poll(senders).toEqual(expect.arrayContaining([from]));
  const froms = await senders();
  expect(froms.length).toBeLessThanOrEqual(5);
  expect(new Set(froms)).toEqual(new Set([from]));
});

for (const how of ['typed', 'picked from the suggestions'] as const) {
  test(`filters by a source chain name ${how}`, async ({ openApp }) => {
    const page = await openApp('#/messages');
    const rows = page.getByTestId('message-row');
    await expect(rows).toHaveCount(10);
    const chain = chainsOf('mainnet').find((c) => c.name === 'C-Chain')!;
    await page.getByTestId('filter-source').fill(chain.name);
    // Enter in the open suggestion list takes the highlighted suggestion.
    if (how === 'picked from the suggestions') await page.getByTestId('filter-source').press('Enter');
    await page.getByTestId('filter-apply').click();
    await expect(page.getByTestId('field-error-source')).toHaveCount(0);
    const routes = () => rows.evaluateAll((els) => els.map((r) => r.textContent ?? ''));
    await expect.poll(async () => (await routes()).every((text) => text.includes(`${chain.name} →`))).toBe(true);
    expect((await routes()).length).toBe(10);
  });
}

test('refuses invalid input at the field and sends no request', async ({ openApp }) => {
  const page = await openApp('#/messages');
  await expect(page.getByTestId('message-row')).toHaveCount(10);
  const senders = () => inputsSent(page, 'browseMessages').map((i) => (i as { from?: string }).from);

  await page.getByTestId('filter-from').fill('0x12345');
  await page.getByTestId('filter-page-size').fill('500');
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('field-error-from')).toBeVisible();
  await expect(page.getByTestId('field-error-pageSize')).toContainText('100');

  // A well-formed address with a broken EIP-55 checksum is refused too.
  await page.getByTestId('filter-page-size').fill('10');
  await page.getByTestId('filter-from').fill('0x253b2784c75e510dD0fF1da844684a1aC0aa5fCF');
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('field-error-from')).toContainText(/checksum/i);
  await expect(page.getByTestId('field-error-pageSize')).toHaveCount(0);
  await screenshot(page, 'messages-invalid-input');
  // Once the fields are valid the query goes out; had a refused one gone out, it would be recorded before it.
  const valid = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
  await page.getByTestId('filter-from').fill(valid);
  await page.getByTestId('filter-apply').click();
  await expect.poll(senders).toContain(valid);
  expect(senders().filter((from) => from !== undefined && from !== valid)).toEqual([]);
});

test('opens a message with every detail and closes it with Escape', async ({ openApp }) => {
  const page = await openApp('#/messages');
  const row = page.getByTestId('message-row').first();
  const id = await row.getAttribute('data-message-id');
  await row.click();
  const drawer = page.getByTestId('detail-drawer');
  await expect(drawer).toBeVisible();
  await expect(page.getByTestId('detail-message-id')).toContainText(id!);
  await expect(page.getByTestId('detail-raw')).toContainText(id!);
  await screenshot(page, 'message-detail');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
});
