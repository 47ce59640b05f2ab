import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { callsSent, E2E_API_KEY, expect, SCREENSHOT_DIR, screenshot, test } from './fixtures';

// `npm test` runs inside a private D-Bus session with an unlocked gnome-keyring (scripts/test-all.mjs):
// there the key must land in the real Secret Service; anywhere else the app must say it cannot.
const realKeychain = process.env.TW_TEST_SESSION === 'keyring';

/** The secret stored for this app's entry, straight from the Secret Service (null if none). */
function secretInKeychain(service: string): string | null {
  const r = spawnSync('secret-tool', ['lookup', 'service', service, 'username', 'api-key'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout ? r.stdout : null;
}

test('sets, tests and removes the API key (write-only, in the OS keychain)', async ({ openApp, stack }) => {
  const key = E2E_API_KEY;
  const page = await openApp('#/settings');
  const status = page.getByTestId('api-key-status');
  await expect(status).toContainText('No API key');
  await screenshot(page, 'settings');

  // Refused at the field, nothing sent.
  await page.getByTestId('api-key-input').fill('short');
  await page.getByTestId('api-key-save').click();
  await expect(page.getByTestId('field-error-apiKey')).toContainText(/too short/i);
  expect(callsSent(page, 'setApiKey')).toBe(0);

  // The embedded local service needs no key: nothing is sent to it, and the page says so.
  await page.getByTestId('api-key-input').fill('never-sent-to-the-local-service');
  await page.getByTestId('api-key-test').click();
  await expect(page.getByTestId('api-key-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('api-key-test-result')).toContainText('Nothing to test');

  // The same service as a custom URL is an endpoint that knows keys: from here on keys are tested there.
  const { dataSource } = await stack.call<{ dataSource: unknown }>('getSettings');
  await stack.call('updateSettings', { dataSource: { kind: 'custom', baseUrl: stack.service.url } });
  try {
    await testKeyOnCustomSource(page, stack, key, status);
  } finally {
    await stack.call('updateSettings', { dataSource });
  }
});

async function testKeyOnCustomSource(page: Page, stack: { keychainService: string }, key: string, status: Locator): Promise<void> {
  // A key the service does not know: the test says so before anything is stored.
  await page.getByTestId('api-key-input').fill('not-the-right-key-42');
  await page.getByTestId('api-key-test').click();
  await expect(page.getByTestId('api-key-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('api-key-test-result')).toContainText('401');
  await expect(status).toContainText('No API key');

  await page.getByTestId('api-key-input').fill(key);
  await page.getByTestId('api-key-save').click();
  await expect(status).toHaveAttribute('data-storage', realKeychain ? 'keychain' : 'memory');
  expect(callsSent(page, 'setApiKey')).toBe(1); // the valid key went out, once
  await expect(page.getByTestId('api-key-input')).toHaveValue('');
  if (realKeychain) expect(secretInKeychain(stack.keychainService)).toBe(key);
  else await expect(page.getByTestId('api-key-keychain-error')).toBeVisible();

  // The key never comes back to the page, even after a reload.
  await page.reload();
  await expect(status).toHaveAttribute('data-storage', realKeychain ? 'keychain' : 'memory');
  expect(await page.content()).not.toContain(key);

  await page.getByTestId('api-key-test').click();
  await expect(page.getByTestId('api-key-test-result')).toHaveAttribute('data-ok', 'true');
  await status.locator('xpath=ancestor::div[contains(@class, "n-card")][1]').screenshot({ path: join(SCREENSHOT_DIR, 'api-key.png') });

  await page.getByTestId('api-key-remove').click();
  await page.getByTestId('api-key-remove-confirm').click();
  await expect(status).toContainText('No API key');
  await expect(status).toHaveAttribute('data-storage', 'none');
  if (realKeychain) expect(secretInKeychain(stack.keychainService)).toBeNull();
}

test('shows the data source failing and recovering in the poll status', async ({ openApp, stack }) => {
  const page = await openApp('#/messages');
  const state = page.getByTestId('poll-state');
  await expect(state).toHaveAttribute('data-state', /idle|polling/);

  // Watch something so every poll cycle asks the service.
  const info = (await (await fetch(`${stack.service.url}/_local/info`)).json()) as { addresses: string[] };
  await stack.call('addWatch', { address: info.addresses[1], label: 'fault test' }).catch(() => undefined);

  stack.service.setFaults('5xx:1');
  try {
    await page.getByTestId('poll-now').click();
    await expect(state).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
    await expect(page.getByTestId('poll-last-error')).toContainText('server');
    await screenshot(page, 'service-failing');
  } finally {
    stack.service.setFaults(null);
  }
  await page.getByTestId('poll-now').click();
  await expect(state).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await expect(page.getByTestId('poll-last-error')).toHaveCount(0);
  // The stack is shared by the worker's tests: a busy watched address would flood their toasts.
  await stack.call('removeWatch', { address: info.addresses[1] });
});

test('adds an alert channel in Settings: a bad URL is refused at the field, a good one is saved and stays', async ({ openApp, stack }) => {
  const page = await openApp('#/settings');
  await page.getByTestId('alert-channel-add').click();
  const url = page.getByTestId('alert-channel-url-0');
  await url.fill('ftp://127.0.0.1:9093');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('field-error-alert-channel-url-0')).toHaveText('Alertmanager url must start with http:// or https://.');
  await expect(page.getByTestId('settings-save-error')).toContainText('Alertmanager url must start with http:// or https://.');
  expect(callsSent(page, 'updateSettings')).toBe(0);

  await url.fill('http://127.0.0.1:9093');
  await page.getByTestId('alert-channel-name-0').fill('on-call');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  try {
    expect((await stack.call<{ alertChannels: unknown[] }>('getSettings', undefined)).alertChannels).toEqual([
      { type: 'alertmanager', url: 'http://127.0.0.1:9093', name: 'on-call' },
    ]);
    await page.reload();
    await expect(page.getByTestId('alert-channel-url-0')).toHaveValue('http://127.0.0.1:9093');
    await page.getByTestId('alert-channel-remove-0').click();
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('alert-channels-empty')).toBeVisible();
    await expect.poll(async () => (await stack.call<{ alertChannels: unknown[] }>('getSettings', undefined)).alertChannels).toEqual([]);
  } finally {
    // The stack is shared by the worker's tests.
    await stack.call('updateSettings', { alertChannels: [] });
  }
});

test("the Data API plan: custom figures saved in Settings are what the status bar's quota line counts against", async ({ openApp }) => {
  const page = await openApp('#/settings');
  const quota = page.getByTestId('poll-quota');
  // The demo service gets no key: the automatic plan is the unauthenticated one.
  await page.getByTestId('poll-now').click();
  await expect(quota).toContainText(/^today [\d,]+ \/ 1,200,000 CU \([\d,]+ requests, unauthenticated plan\) · at this pace/);
  await page.getByTestId('settings-plan').click();
  await page.getByText('Custom figures', { exact: true }).click();
  await page.getByTestId('settings-plan-cu-minute').fill('9000');
  await page.getByTestId('settings-plan-cu-day').fill('100');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('field-error-plan.cuPerDay')).toHaveText('Plan CU per day must be at least its CU per minute.');
  await page.getByTestId('settings-plan-cu-day').fill('3000000');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await page.getByTestId('poll-now').click();
  await expect(quota).toContainText(/^today [\d,]+ \/ 3,000,000 CU \([\d,]+ requests, custom plan\)/);
  // Beside it, what Keep history keeps: a delivered message by its delivery time, not the last read that met it.
  await expect(page.getByTestId('settings-retention-hint')).toContainText('kept this many days after its delivery, however often reads meet it again');
});
