import { expect, screenshot, test } from './fixtures';

test('Ctrl+K finds any message by ID through the single-message operation and opens it in the detail drawer', async ({ openApp, stack }) => {
  const page = await openApp('#/messages');
  await expect(page.getByTestId('message-row').first()).toBeVisible();
  // A Fuji message while the app browses mainnet: the app has not listed it, the data source knows it.
  const res = await fetch(`${stack.service.url}/v1/icm/messages?network=fuji&pageSize=3`);
  const { messages } = (await res.json()) as { messages: { messageId: string }[] };
  const id = messages[2]!.messageId;

  await page.keyboard.press('Control+k');
  const box = page.getByTestId('find-message-input');
  await expect(box).toBeFocused();
  await box.fill(`0x${id}`);
  await box.press('Enter');
  const drawer = page.getByTestId('detail-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText(id);
  await screenshot(page, 'find-message');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A well-formed ID nobody knows: a clear "no message" under the box, no drawer.
  await box.fill('ab'.repeat(32));
  await box.press('Enter');
  await expect(page.getByTestId('field-error-messageId')).toContainText(`No message with ID ${'ab'.repeat(32)}`);
  await expect(drawer).toBeHidden();

  // A malformed one: the field error, before anything is sent.
  await box.fill('0x12');
  await page.getByTestId('find-message-button').click();
  await expect(page.getByTestId('field-error-messageId')).toHaveText('Message ID must be 64 hex digits, with or without 0x (got 2).');
});
