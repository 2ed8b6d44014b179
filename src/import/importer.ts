import { small } from '../audit/audit-detail.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { masterClassOf } from '../catalog/standard-classes.js';
import { DEFAULT_OBJECTS_MAX_LINKS } from '../config/app-config.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { DEFAULT_ROLES, DatasetError, type Dataset, type DatasetObject } from './dataset.js';
import { idValues, resolveRef, storeReferences, storeTypes } from './importer-catalog.js';
import { MasterValues } from './importer-masters.js';
import { storeUses } from './importer-structure.js';
import { ownerStorage } from '../objects/plain/catalog-input.js';
import { importServices, type ImportServices } from './import-services.js';
import { nothingStored } from './import-progress.js';
import type { ImportBlobs, ImportOptions, ImportProgress, ImportSummary } from './importer-types.js';

export {
  compareIterations,
  type ImportBlobs,
  type ImportOptions,
  type ImportProgress,
  type ImportSummary,
} from './importer-types.js';

/** Who imports when no one is named: records without `createdBy` are created by this user. */
export const DEFAULT_IMPORTING_USER = 'admin';

/**
 * Loads a validated dataset in one transaction: either every record is stored or none is.
 * Records are matched by their natural keys and updated, so importing a file twice changes
 * nothing. Numbering counters only move forward, so a re-import never rewinds one. File bytes
 * go where `blobs` puts them (see ImportBlobs). An iteration the dataset gives usage links may
 * hold at most `maxLinks` of them, counting those it had.
 */
export async function importDataset(
  prisma: PrismaService,
  data: Dataset,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { source = 'dataset', maxLinks = DEFAULT_OBJECTS_MAX_LINKS } = options;
  const importingUser = { name: options.importingUser ?? DEFAULT_IMPORTING_USER, given: !!options.importingUser };
  return prisma.transaction(({ db }) => {
    const services = importServices(db);
    // File bytes in PostgreSQL go in the import's transaction: stored with it or not at all.
    const blobs = options.blobs ?? { put: (bytes: Buffer) => services.content.putBlob(bytes) };
    return new Importer(services, data, importingUser, source, maxLinks, blobs, options.progress).run();
  });
}

/**
 * A dataset record that would change an object someone holds checked out: the import leaves the
 * holder's working copy alone, and stores nothing.
 */
function checkedOut(path: string, number: string, holder: string): DatasetError {
  return new DatasetError(
    `${path}: ${number} is checked out by ${holder}; an import does not change a checked-out object: have it ` +
      `checked in, or the check-out undone (POST /objects/${number}/undo-checkout), and import again`,
  );
}

class Importer {
  private readonly userIds = new Map<string, number>();
  private readonly containerIds = new Map<string, number>();
  private readonly masterValues = new MasterValues();
  /** The masters this import made (their stamps are taken from their iterations at the end). */
  private readonly createdMasters = new Set<number>();
  private readonly summary: ImportSummary = {
    roles: 0,
    users: 0,
    containers: 0,
    workspaces: 0,
    types: 0,
    objects: 0,
    files: 0,
    links: 0,
    reports: 0,
  };
  private readonly progress: ImportProgress;

  constructor(
    private readonly s: ImportServices,
    private readonly data: Dataset,
    /** The user the import is made as; `given`: named by the caller, and so required to be a user. */
    private readonly importingUser: { name: string; given: boolean },
    private readonly source: string,
    private readonly maxLinks: number,
    private readonly blobs: ImportBlobs,
    private readonly onProgress: (progress: ImportProgress) => void = () => undefined,
  ) {
    this.progress = nothingStored(data);
  }

  /** Counts what was stored (`objects`, `files` with their `bytes`, `links`) and tells onProgress. */
  private stored(what: Partial<Pick<ImportProgress, 'objects' | 'files' | 'bytes' | 'links'>>) {
    for (const [key, n] of Object.entries(what) as [keyof typeof what, number][]) this.progress[key] += n;
    this.onProgress({ ...this.progress });
  }

  async run(): Promise<ImportSummary> {
    this.stored({});
    // Usage links are added under the lock /objects adds them under, taken before any row lock
    // (as /objects does), so the count checked against maxLinks is the one committed.
    if (this.data.objects.some((o) => o.uses.length > 0)) await this.s.objects.lockStructures();
    this.summary.types = await storeTypes(this.s.catalog, this.data.types);
    await this.roles();
    await this.users();
    await this.containers();
    if (this.importingUser.given) await this.importingUserId(null);
    await this.workspaces();
    const plainIds = await this.plainObjects();
    const iterationIds = await this.objects();
    // References last: they may name any record of the dataset.
    await storeReferences(this.s.objects, this.data, plainIds, iterationIds);
    await this.masterValues.write(this.s.objects, this.data.catalog);
    await this.s.objects.stampCreatedMasters([...this.createdMasters]);
    await this.links();
    await this.reports();
    this.stored({});
    // One event per dataset, in its transaction: what was loaded, from where.
    await this.s.audit.recordImport(this.importingUser.name, { source: small(this.source), ...this.summary });
    return this.summary;
  }

  /** Objects of plain catalog classes, matched by class and number (or name when they have none). */
  private async plainObjects(): Promise<number[]> {
    const ids: number[] = [];
    for (const o of this.data.plainObjects) {
      const path = o.path;
      const containerId = o.container ? await this.containerId(o.container, `${path}.container`) : null;
      const createdById = await this.creatorId(o.createdBy, path);
      const modifiedById = o.modifiedBy ? await this.userId(o.modifiedBy, `${path}.modifiedBy`) : createdById;
      const id = await this.s.objects.putPlain({
        cls: o.class,
        number: o.number,
        softType: o.softType,
        name: o.name,
        state: o.state,
        containerId,
        createdById,
        modifiedById,
        props: o.props,
        createdAt: o.createdAt ?? null,
        modifiedAt: o.modifiedAt ?? null,
      });
      ids.push(id);
      this.summary.objects++;
      this.stored({ objects: 1 });
    }
    return ids;
  }

  /** Links of catalog link classes, matched by class and their two ends. */
  private async links() {
    const catalog = this.data.catalog;
    for (const [i, l] of this.data.links.entries()) {
      const path = `links[${i}]`;
      const roles = catalog.findClass(l.class)!.roles!;
      const a = await resolveRef(this.s.objects, catalog, roles.a, l.a, `${path}.a`);
      const b = await resolveRef(this.s.objects, catalog, roles.b, l.b, `${path}.b`);
      // A link is its role A's (see CatalogLinksService): a checked-out role A is not changed.
      const owner = ownerStorage(catalog, l.class);
      const held = owner ? await this.s.objects.holderOf(owner, a.id) : null;
      if (held?.holder) throw checkedOut(`${path}.a`, held.number, held.holder);
      const containerId = l.container ? await this.containerId(l.container, `${path}.container`) : null;
      const props = { ...l.props, ...(await idValues(this.s.objects, catalog, l.ids)) };
      await this.s.objects.putLink({ cls: l.class, softType: l.softType, a: a.id, b: b.id, containerId, props });
      this.summary.links++;
      this.stored({ links: 1 });
    }
  }

  private async roles() {
    const names = [...new Set([...DEFAULT_ROLES, ...this.data.roles])];
    await this.s.content.addRoles(names);
    this.summary.roles = names.length;
  }

  private async users() {
    for (const u of this.data.users) {
      const existing = await this.s.admin.findUser(u.name);
      const passwordHash =
        existing && (await verifyPassword(u.password, existing.passwordHash))
          ? existing.passwordHash
          : await hashPassword(u.password);
      const fields = { passwordHash, admin: u.admin, fullName: u.fullName, email: u.email, disabled: u.disabled };
      this.userIds.set(u.name, await this.s.admin.putUser(existing?.id ?? null, u.name, fields));
      this.summary.users++;
    }
  }

  private async userId(name: string, path: string): Promise<number> {
    const known = this.userIds.get(name);
    if (known !== undefined) return known;
    const row = await this.s.admin.findUser(name);
    if (!row) throw new DatasetError(`${path}: unknown user "${name}"`);
    this.userIds.set(name, row.id);
    return row.id;
  }

  /** Who created a record: `createdBy`, else the importing user, who must then be a user. */
  private async creatorId(createdBy: string | null, path: string): Promise<number> {
    return createdBy ? this.userId(createdBy, `${path}.createdBy`) : this.importingUserId(`${path}.createdBy`);
  }

  /**
   * The importing user's id (stored, or one of the dataset's users). `path`: the record whose
   * creator it is, for the message when there is none.
   */
  private async importingUserId(path: string | null): Promise<number> {
    const name = this.importingUser.name;
    const known = this.userIds.get(name);
    if (known !== undefined) return known;
    const row = await this.s.admin.findUser(name);
    if (row) {
      this.userIds.set(name, row.id);
      return row.id;
    }
    const missing = `the importing user "${name}" is neither a stored user nor one of the dataset's users`;
    if (!path) throw new DatasetError(missing);
    throw new DatasetError(
      `${path}: not given, and ${missing} (give createdBy, or import as a user: npm run import -- --as <user> <file>)`,
    );
  }

  private async containerId(name: string, path: string): Promise<number> {
    const known = this.containerIds.get(name);
    if (known !== undefined) return known;
    const id = await this.s.admin.containerId(name);
    if (id === null) throw new DatasetError(`${path}: unknown container "${name}"`);
    this.containerIds.set(name, id);
    return id;
  }

  private async containers() {
    for (const [i, c] of this.data.containers.entries()) {
      const containerId = await this.s.admin.putContainer(c.name, c.class, c.description);
      this.containerIds.set(c.name, containerId);
      for (const [user, role] of Object.entries(c.members)) {
        const userId = await this.userId(user, `containers[${i}].members.${user}`);
        await this.s.admin.putMember(containerId, userId, role);
      }
      await this.s.admin.putRules(
        containerId,
        c.numbering.map((n) => ({
          cls: n.class,
          prefix: n.prefix,
          suffix: n.suffix,
          width: n.width,
          next: BigInt(n.next),
        })),
      );
      this.summary.containers++;
    }
  }

  private async workspaces() {
    for (const [i, w] of this.data.workspaces.entries()) {
      const containerId = await this.containerId(w.container, `workspaces[${i}].container`);
      const ownerId = await this.userId(w.owner, `workspaces[${i}].owner`);
      await this.s.admin.putWorkspace(w.name, containerId, ownerId);
      this.summary.workspaces++;
    }
  }

  private async objects(): Promise<number[]> {
    const touchedMasters = new Set<number>();
    const iterationIds: number[] = [];
    for (const o of this.data.objects) {
      const path = o.path;
      const containerId = await this.containerId(o.container, `${path}.container`);
      const masterId = await this.master(o, containerId);
      touchedMasters.add(masterId);
      this.masterValues.add(masterId, masterClassOf(o.class), this.data.catalog, o.master, path);
      iterationIds.push(await this.iteration(o, masterId, path));
      this.summary.objects++;
      this.stored({ objects: 1 });
    }
    await this.s.objects.recomputeLatest([...touchedMasters]);
    for (const [i, o] of this.data.objects.entries()) {
      await storeUses(this.s.objects, o, iterationIds[i], this.maxLinks, () => {
        this.summary.links++;
        this.stored({ links: 1 });
      });
    }
    return iterationIds;
  }

  /**
   * The master of a versioned record, matched by class and number: made, or updated when the
   * record gives it another subtype, soft type, name or container (its modifyStamp moves then,
   * and only then, so a re-import changes nothing).
   */
  private async master(o: DatasetObject, containerId: number): Promise<number> {
    const fields = { subtype: o.subtype, softType: o.softType, name: o.name, containerId };
    const existing = await this.s.objects.findMaster(o.class, o.number);
    if (existing?.holder) throw checkedOut(o.path, o.number, existing.holder);
    if (!existing) {
      const id = await this.s.objects.createMaster(o.class, o.number, fields);
      this.createdMasters.add(id);
      return id;
    }
    const changed = (Object.keys(fields) as (keyof typeof fields)[]).some((k) => existing[k] !== fields[k]);
    if (changed) await this.s.objects.updateMaster(existing.id, fields);
    return existing.id;
  }

  private async iteration(o: DatasetObject, masterId: number, path: string): Promise<number> {
    const createdById = await this.creatorId(o.createdBy, path);
    const modifiedById = o.modifiedBy ? await this.userId(o.modifiedBy, `${path}.modifiedBy`) : createdById;
    const id = await this.s.objects.putIteration({
      masterId,
      version: o.version,
      iteration: o.iteration,
      state: o.state,
      title: o.title,
      description: o.description,
      attributes: o.attributes,
      createdById,
      modifiedById,
      createdAt: o.createdAt ?? null,
      modifiedAt: o.modifiedAt ?? null,
    });
    for (const f of o.files) {
      const blob = await this.blobs.put(f.bytes);
      await this.s.content.putItem(id, f.filename, {
        role: f.role,
        mimeType: f.mimetype,
        size: blob.size,
        sha256: blob.sha256,
      });
      this.summary.files++;
      this.stored({ files: 1, bytes: f.bytes.length });
    }
    return id;
  }

  private async reports() {
    for (const [i, r] of this.data.reports.entries()) {
      const containerId = await this.containerId(r.container, `reports[${i}].container`);
      await this.s.reports.putTemplate({ name: r.name, containerId, description: r.description, qml: r.qml });
      this.summary.reports++;
    }
  }
}
