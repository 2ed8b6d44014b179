import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { useTestApp } from '../helpers/use-test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test', 'artifacts');
// CI installs Debian's chromium (.ci/run); elsewhere the test needs it installed to run.
const available = existsSync(CHROMIUM);
if (!available && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing in CI`);
const describeWithBrowser = available ? describe : describe.skip;
if (!available) console.warn(`skipping the Swagger UI browser test: no ${CHROMIUM} (apt-get install chromium)`);

describeWithBrowser('Swagger UI in a real browser', () => {
  let browser: Browser;
  let base: string;

  const t = useTestApp();
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('authorizes with Basic credentials and runs GET /numbers/version with "Try it out"', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`);

    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    const dialog = page.locator('.modal-ux');
    // Two schemes, Basic first, then Bearer (personal access tokens, identity providers' tokens).
    const sections = dialog.locator('.auth-container');
    expect(await sections.count()).toBe(2);
    expect(await sections.nth(1).innerText()).toMatch(/^bearer\s+\(http, Bearer\)\s+a personal access token/);
    const basic = sections.first();
    await basic.locator('input').nth(0).fill('alice');
    await basic.locator('input[type=password]').fill('alice-pw');
    await basic.locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();

    const op = page.locator('#operations-numbers-NumbersController_version');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();

    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const body = JSON.parse(await op.locator('.live-responses-table .microlight').first().innerText()) as unknown;
    expect(body).toEqual({
      version: expect.any(String),
      build: expect.any(Number),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'swagger-ui.png'), fullPage: true });
  }, 60_000);

  it('authorizes with a personal access token and runs GET /principals/me with "Try it out"', async () => {
    const created = await fetch(`${base}/me/tokens`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from('alice:alice-pw').toString('base64'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: `swagger-ui-${Date.now()}`, expiresInDays: 1, scopes: ['read'] }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };

    const page = await browser.newPage();
    await page.goto(`${base}/docs`);
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    const dialog = page.locator('.modal-ux');
    const bearer = dialog.locator('.auth-container').nth(1);
    await bearer.locator('input').fill(token);
    await bearer.locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();

    const op = page.locator('#operations-principals-PrincipalsController_me');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const body = JSON.parse(await op.locator('.live-responses-table .microlight').first().innerText()) as unknown;
    expect(body).toMatchObject({ name: 'alice', via: 'token', scopes: ['read'], admin: false });
  }, 60_000);
});
