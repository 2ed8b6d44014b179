import { existsSync, rmSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmbeddedService, stopService, type EmbeddedService } from '../startup/service-process.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing in CI`);
const describeWithBrowser = available ? describe : describe.skip;

interface Operation {
  id: string;
  tag: string;
}

interface Outcome {
  status: number;
  /** The error envelope's message, for an error answer. */
  message?: string;
  /** The fields of a JSON object answered. */
  fields?: string[];
  /** What else was answered: XML, text, or none shown (a file download). */
  body?: string;
}

const VERSION = ['build', 'date', 'version'];
const GROUP = ['createdAt', 'description', 'groups', 'id', 'name', 'users'];
const TOKEN = ['createdAt', 'expiresAt', 'hint', 'id', 'lastUsedAt', 'name', 'scopes'];
const LIST = ['_runtime', 'count', 'items'];
const TEMPLATE = [
  'container',
  'created',
  'description',
  'headings',
  'layout',
  'modified',
  'name',
  'oid',
  'parameters',
  'qml',
  'reportAttributes',
  'warnings',
];
const CATALOG_CLASS = [
  'about',
  'abstract',
  'derived',
  'displayName',
  'interface',
  'interfaces',
  'master',
  'name',
  'oidPrefix',
  'parent',
  'properties',
  'references',
  'roles',
  'softTypeDetails',
  'softTypes',
  'storage',
  'subclasses',
  'userDeclared',
];
const FILE_WRITE = ['holder', 'oid', 'success', 'url'];
const CAD = ['attributes', 'number', 'oid', 'subtype', 'version'];
const CAD_LINK = ['attributes', 'id', 'lineNumber', 'member', 'quantity', 'referenceNumber', 'unit'];
const OBJECT = [
  'attributes',
  'checkedOutBy',
  'class',
  'container',
  'createdAt',
  'createdBy',
  'description',
  'isCheckedOut',
  'iteration',
  'latest',
  'masterOid',
  'modifiedAt',
  'modifiedBy',
  'name',
  'note',
  'number',
  'oid',
  'softType',
  'state',
  'subtype',
  'title',
  'type',
  'version',
  'versionReference',
  'workingCopy',
];
const OBJECT_USE = ['id', 'lineNumber', 'member', 'oid', 'parent', 'quantity', 'unit'];
const PLAIN_OBJECT = [
  'class',
  'container',
  'createdAt',
  'createdBy',
  'modifiedAt',
  'modifiedBy',
  'name',
  'number',
  'oid',
  'props',
  'references',
  'softType',
  'state',
  'type',
];
const CATALOG_LINK = ['a', 'b', 'class', 'container', 'createdAt', 'id', 'oid', 'props', 'softType'];
const PAGED = ['count', 'items', 'limit', 'page', 'total'];
const USER = ['admin', 'createdAt', 'disabled', 'email', 'fullName', 'name', 'oid'];
const CONTAINER = ['class', 'createdAt', 'description', 'name', 'oid'];
const RULE = ['class_name', 'next', 'next_number', 'prefix', 'suffix', 'width'];
const PAGE = [
  '_runtime',
  'count',
  'items',
  'limit',
  'page',
  'query',
  'session',
  'session_id',
  'start',
  'success',
  'total',
  'total_count',
];
const SUBSCRIPTION = [
  'actions',
  'active',
  'container',
  'createdAt',
  'id',
  'name',
  'owner',
  'pausedReason',
  'secretHint',
  'state',
  'type',
  'updatedAt',
  'url',
];
const API_ITEM = ['_runtime', 'details', 'item', 'modified', 'name', 'number', 'oid', 'path', 'url', 'version'];

/** The longest one operation may take before the test says the service hangs. */
const ANSWER_MS = 30_000;

async function operations(base: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${base}/docs-json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  };
  return Object.values(doc.paths).flatMap((ops) =>
    Object.values(ops).map((o) => ({ id: o.operationId, tag: o.tags[0] })),
  );
}

async function authorize(page: Page, user: string, password: string): Promise<void> {
  await page
    .getByRole('button', { name: /Authorize/ })
    .first()
    .click();
  const dialog = page.locator('.modal-ux');
  // The dialog offers Basic (first) and Bearer (a personal access token): sign in with Basic.
  const basic = dialog.locator('.auth-container').first();
  await basic.locator('input').nth(0).fill(user);
  await basic.locator('input[type=password]').fill(password);
  await basic.locator('button.authorize').click();
  // Each scheme's section has its own Close button: any one closes the dialog.
  await dialog.locator('button.btn-done').first().click();
}

/** The group the nesting examples put into group 1 (id 2 on the demo data). */
async function secondGroup(base: string): Promise<void> {
  const res = await fetch(`${base}/admin/groups`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'Gear Designers' }),
  });
  expect([res.status, ((await res.json()) as { id: number }).id]).toEqual([201, 2]);
}

/** A resumable upload of 5 bytes into 0000000001 (as admin), as a client's POST makes one: its id. */
async function tusUpload(base: string, fileName: string): Promise<string> {
  const res = await fetch(`${base}/files/tus`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'tus-resumable': '1.0.0',
      'upload-length': '5',
      'upload-metadata': `ref ${btoa('0000000001')},filename ${btoa(fileName)}`,
    },
  });
  expect(res.status).toBe(201);
  return res.headers.get('location')!.split('/').pop()!;
}

/**
 * Opens the operation, clicks "Try it out" and "Execute" with what Swagger UI fills in, and the
 * path parameters of `fill` typed in (as a user types the id another operation answered).
 */
async function tryItOut(
  page: Page,
  op: Operation,
  fill: Record<string, string> = {},
): Promise<{ outcome: Outcome; json: unknown }> {
  const block = page.locator(`#operations-${op.tag}-${op.id}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  for (const [name, value] of Object.entries(fill)) {
    await block.locator(`tr[data-param-name="${name}"][data-param-in="path"] input`).fill(value);
  }
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  const answered = await status.waitFor({ timeout: ANSWER_MS }).then(
    () => true,
    () => false,
  );
  if (!answered) {
    // Swagger UI shows its spinner while the request is out.
    if ((await block.locator('.loading-container').count()) > 0) {
      return { outcome: { status: 0, message: `no answer within ${ANSWER_MS} ms` }, json: undefined };
    }
    // It sends nothing while a required field is empty: it marks the field instead.
    return { outcome: { status: 0, message: 'not sent: a required field is empty' }, json: undefined };
  }
  // The cell also says "Undocumented" for a code the operation does not list.
  const code = Number(/\d{3}/.exec(await status.innerText())?.[0]);
  const shown = block.locator('.live-responses-table .response-col_description .microlight');
  const text = (await shown.count()) > 0 ? await shown.first().innerText() : '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const outcome: Outcome = { status: code };
  if (code >= 400) outcome.message = (json as { message: string }).message;
  else if (json && typeof json === 'object' && !Array.isArray(json)) outcome.fields = Object.keys(json).sort();
  else outcome.body = text === '' ? 'none shown' : text.trimStart().startsWith('<?xml') ? 'XML' : 'text';
  await block.locator('.opblock-summary').first().click(); // folded again: keeps the page small
  return { outcome, json };
}

/**
 * Every operation of the API, run in Swagger UI as shipped: the examples of the parameters and
 * bodies are what a first-time user executes. They must work against the demo data, on what a
 * first-time user runs them on: the built service started as `npm start` starts it, without
 * DATABASE_URL, so on the embedded database in a new DATA_DIR (its upload example once failed
 * there only). Each operation's behaviour on a PostgreSQL server is the subject of the services'
 * own tests. Some operations change the demo data (in document order: a report is created, then
 * deleted; a file is uploaded, then deleted; numbers are reserved): hence a DATA_DIR of its own.
 */
describeWithBrowser('Swagger UI "Try it out" on every operation', () => {
  let service: EmbeddedService;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    service = await startEmbeddedService();
    base = service.base;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (!service) return;
    try {
      expect(await stopService(service.service)).toBe(0);
    } finally {
      rmSync(service.dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers each with success, with the defaults Swagger UI fills in', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`);
    await authorize(page, 'admin', 'admin');
    const outcomes: Record<string, Outcome> = {};
    // The page and close operations have no example id (ids are shared by all users): the user
    // types the session_id that an open answered, as their description says.
    let session: Record<string, string> = {};
    let uploads = { sent: '', dropped: '' };
    let hung = false;
    for (const op of await operations(base)) {
      // Once the service stopped answering, the others would each wait ANSWER_MS in vain.
      if (hung) {
        outcomes[op.id] = { status: 0, message: 'not tried: the service stopped answering' };
        continue;
      }
      // Nesting needs a second group, which the create example (one group, id 1) does not
      // make: it is made as a user would, and the delete example (id 2) removes it again.
      if (op.id === 'GroupsController_putGroup') await secondGroup(base);
      // The upload operations need an upload's id, which the create example answers only in its
      // Location header: the user types the id of one they made (one sent, one terminated).
      if (op.id === 'TusUploadsController_head') {
        uploads = { sent: await tusUpload(base, 'tus-try.txt'), dropped: await tusUpload(base, 'tus-dropped.txt') };
      }
      const uses = op.id === 'QueryController_page' || op.id === 'QueryController_close';
      const fill = uses
        ? session
        : op.id === 'TusUploadsController_head' || op.id === 'TusUploadsController_patch'
          ? { id: uploads.sent }
          : op.id === 'TusUploadsController_terminate'
            ? { id: uploads.dropped }
            : {};
      const { outcome, json } = await tryItOut(page, op, fill);
      outcomes[op.id] = outcome;
      hung = outcome.message?.startsWith('no answer') === true;
      if (op.id === 'QueryController_open' && outcome.status === 200) {
        session = { session_id: String((json as { session_id: number }).session_id) };
      }
    }
    // Every operation succeeds with its defaults: none is left where an error is the intended
    // outcome (a report is created before it is deleted, a file uploaded before it is deleted,
    // and the session "open" kept is paged and closed; the administration examples
    // create a user, a container, a rule and a workspace of their own before changing and
    // deleting them, and add carol to Drive Unit before removing her again; a group is made, carol
    // put in and taken out, a second group nested and unnested, then deleted, and group 1 given a
    // role in Drive Unit that is removed again; the objects examples
    // create a document, delete the obsolete 0000000005, release 0000000002 (taking none of the
    // documents the query example matches out of it: it must keep more than one page), and add a
    // link to P-00000001 before changing and removing it; a catalog link is added, demo link 1 removed, and
    // the design view, object 1, described; a subscription is made, read, changed and deleted,
    // after its (empty) dead letters were listed, queued again and discarded).
    expect(outcomes).toEqual({
      CatalogController_catalog: { status: 200, fields: ['classes', 'softTypes'] },
      CatalogController_one: { status: 200, fields: CATALOG_CLASS },
      ReportsController_version: { status: 200, fields: VERSION },
      ReportsController_list: { status: 200, fields: LIST },
      ReportsController_runInline: { status: 200, fields: LIST },
      ReportsController_details: { status: 200, fields: TEMPLATE },
      ReportsController_runNamedGet: { status: 200, body: 'XML' },
      ReportsController_runNamedPost: { status: 200, body: 'XML' },
      ReportsController_put: { status: 201, fields: TEMPLATE },
      ReportsController_remove: { status: 204, body: 'text' },
      TusUploadsController_create: { status: 201, body: 'text' },
      TusUploadsController_options: { status: 204, body: 'text' },
      TusUploadsController_head: { status: 200, body: 'text' },
      TusUploadsController_patch: { status: 200, fields: FILE_WRITE },
      TusUploadsController_terminate: { status: 204, body: 'text' },
      FilesController_version: { status: 200, fields: VERSION },
      FilesController_list: { status: 200, fields: [...LIST, 'checkedOutBy', 'isCheckedOut'].sort() },
      // A ZIP (stored entries, the manifest readable): Swagger UI shows its bytes as text.
      FilesController_collect: { status: 200, body: 'text' },
      FilesController_download: { status: 200, body: 'text' },
      FilesController_upload: { status: 201, fields: FILE_WRITE },
      FilesController_remove: { status: 200, fields: FILE_WRITE },
      NumbersController_version: { status: 200, fields: VERSION },
      NumbersController_generate: { status: 200, fields: ['_runtime', 'class_name', 'container', 'count', 'items'] },
      NumbersController_rules: { status: 200, fields: ['_runtime', 'container', 'count', 'items'] },
      ObjectsController_structure: { status: 200, fields: ['levels', 'nodeLimit', 'nodes', 'root', 'truncated'] },
      ObjectsController_whereUsed: { status: 200, fields: ['levels', 'nodeLimit', 'nodes', 'root', 'truncated'] },
      ObjectsController_read: { status: 200, fields: OBJECT },
      ObjectsController_iterations: { status: 200, fields: ['class', 'count', 'items', 'number'] },
      ObjectChangesController_create: { status: 201, fields: OBJECT },
      ObjectChangesController_iterate: { status: 201, fields: OBJECT },
      ObjectChangesController_revise: { status: 201, fields: OBJECT },
      ObjectChangesController_setState: { status: 200, fields: OBJECT },
      ObjectChangesController_remove: {
        status: 200,
        fields: ['class', 'files', 'iterations', 'links', 'masterOid', 'number', 'references', 'usedBy'],
      },
      // The example checks 0000000003 out and in; undoing the check-out then finds nothing to undo.
      CheckoutController_checkout: { status: 200, fields: OBJECT },
      CheckoutController_checkin: { status: 200, fields: OBJECT },
      CheckoutController_undo: {
        status: 409,
        message: '0000000003 is not checked out (POST /objects/0000000003/checkout checks it out)',
      },
      UsageLinksController_add: { status: 201, fields: OBJECT_USE },
      UsageLinksController_update: { status: 200, fields: OBJECT_USE },
      UsageLinksController_remove: { status: 200, fields: OBJECT_USE },
      CatalogObjectsController_addLink: { status: 201, fields: CATALOG_LINK },
      CatalogObjectsController_removeLink: { status: 200, fields: CATALOG_LINK },
      CatalogObjectsController_listLinks: { status: 200, fields: ['object', ...PAGED].sort() },
      CatalogObjectsController_update: { status: 200, fields: PLAIN_OBJECT },
      HistoryController_history: { status: 200, fields: ['count', 'items', 'limit', 'object', 'page', 'total'] },
      CadController_read: { status: 200, fields: [...CAD, 'links', 'truncated'].sort() },
      CadController_merge: { status: 200, fields: CAD },
      CadController_changeLink: { status: 200, fields: CAD_LINK },
      CadController_clearLink: { status: 200, fields: CAD_LINK },
      CadController_numberUsed: { status: 200, fields: [...CAD, 'links', 'mode', 'numbered', 'start', 'step'].sort() },
      QueryController_version: { status: 200, fields: VERSION },
      QueryController_apiJson: {
        status: 200,
        fields: ['components', 'info', 'openapi', 'paths', 'security', 'servers'],
      },
      QueryController_open: { status: 200, fields: PAGE },
      QueryController_openPost: { status: 200, fields: PAGE },
      QueryController_page: { status: 200, fields: PAGE },
      QueryController_close: { status: 200, fields: ['session', 'session_id', 'success'] },
      ObjectApiController_documents: { status: 200, fields: LIST },
      ObjectApiController_document: { status: 200, fields: API_ITEM },
      ObjectApiController_epmDocuments: { status: 200, fields: LIST },
      ObjectApiController_epmDocument: { status: 200, fields: [...API_ITEM, 'cadname'].sort() },
      ObjectApiController_parts: { status: 200, fields: LIST },
      ObjectApiController_part: { status: 200, fields: API_ITEM },
      UsersApiController_list: { status: 200, fields: LIST },
      UsersApiController_read: { status: 200, fields: ['_runtime', 'details', 'fullName', 'name', 'oid', 'url'] },
      MyTokensController_list: { status: 200, fields: ['tokens'] },
      MyTokensController_create: { status: 201, fields: [...TOKEN, 'token'].sort() },
      MyTokensController_revoke: { status: 204, body: 'text' },
      UserTokensController_list: { status: 200, fields: ['tokens'] },
      UserTokensController_create: { status: 201, fields: [...TOKEN, 'token'].sort() },
      UserTokensController_revoke: { status: 204, body: 'text' },
      UsersController_list: { status: 200, fields: PAGED },
      UsersController_create: { status: 201, fields: USER },
      UsersController_get: { status: 200, fields: USER },
      UsersController_update: { status: 200, fields: USER },
      UsersController_remove: { status: 204, body: 'text' },
      ContainersController_list: { status: 200, fields: PAGED },
      ContainersController_create: { status: 201, fields: CONTAINER },
      ContainersController_update: { status: 200, fields: CONTAINER },
      ContainersController_remove: { status: 204, body: 'text' },
      ContainersController_members: { status: 200, fields: ['container', ...PAGED].sort() },
      ContainersController_setMember: { status: 201, fields: ['fullName', 'role', 'user'] },
      ContainersController_removeMember: { status: 204, body: 'text' },
      RulesController_list: { status: 200, fields: ['container', 'count', 'items'] },
      RulesController_create: { status: 201, fields: RULE },
      RulesController_update: { status: 200, fields: RULE },
      RulesController_remove: { status: 204, body: 'text' },
      WorkspacesController_list: { status: 200, fields: PAGED },
      WorkspacesController_create: { status: 201, fields: ['container', 'name', 'oid', 'owner'] },
      WorkspacesController_remove: { status: 204, body: 'text' },
      WorkspacesController_roles: { status: 200, fields: ['count', 'items'] },
      WorkspacesController_createRole: { status: 201, fields: ['name'] },
      GroupsController_list: { status: 200, fields: PAGED },
      GroupsController_create: { status: 201, fields: GROUP },
      GroupsController_members: { status: 200, fields: ['group', 'id', ...PAGED].sort() },
      GroupsController_putUser: { status: 201, fields: ['fullName', 'groupId', 'source', 'user'] },
      GroupsController_removeUser: { status: 204, body: 'text' },
      GroupsController_putGroup: { status: 201, fields: ['group', 'groupId', 'memberGroup', 'memberGroupId'] },
      GroupsController_removeGroup: { status: 204, body: 'text' },
      GroupsController_get: { status: 200, fields: GROUP },
      GroupsController_update: { status: 200, fields: GROUP },
      GroupsController_remove: { status: 204, body: 'text' },
      ContainerGroupsController_list: { status: 200, fields: ['container', ...PAGED].sort() },
      ContainerGroupsController_set: { status: 201, fields: ['id', 'name', 'role'] },
      ContainerGroupsController_remove: { status: 204, body: 'text' },
      EventsController_list: { status: 200, fields: PAGED },
      EventsFeedController_read: { status: 200, fields: ['cursor', 'events', 'missed'] },
      EventsFeedController_stats: { status: 200, fields: ['head', 'oldest', 'oldestAt', 'subscriptions'] },
      SubscriptionsController_list: { status: 200, fields: ['count', 'items'] },
      SubscriptionsController_create: { status: 201, fields: [...SUBSCRIPTION, 'secret'].sort() },
      SubscriptionsController_deadLetters: { status: 200, fields: PAGED },
      SubscriptionsController_redeliver: { status: 202, fields: ['requeued'] },
      SubscriptionsController_discard: { status: 200, fields: ['discarded'] },
      SubscriptionsController_get: { status: 200, fields: SUBSCRIPTION },
      SubscriptionsController_update: { status: 200, fields: SUBSCRIPTION },
      SubscriptionsController_delete: { status: 204, body: 'text' },
      PrincipalsController_users: { status: 200, fields: PAGED },
      PrincipalsController_groups: { status: 200, fields: PAGED },
      PrincipalsController_me: {
        status: 200,
        fields: ['admin', 'containers', 'email', 'fullName', 'groups', 'name', 'oid', 'scopes', 'via'],
      },
      GatewayController_version: { status: 200, fields: ['build', 'date', 'version'] },
      GatewayController_index: { status: 200, fields: ['_runtime', 'count', 'items'] },
      GatewayController_indexHtml: { status: 200, body: 'text' },
      HealthController_live: { status: 200, fields: ['status'] },
      HealthController_ready: { status: 200, fields: ['database', 'migrations', 'status'] },
    });
    // A deadline, not a measure: some hundred operations, each a page interaction, on a busy machine.
  }, 900_000);
});
