import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import { small } from '../audit/audit-detail.js';
import { auditViaPrisma } from '../audit/audit-events.js';
import { recordAuditAs } from '../audit/audit.repository.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { masterClassOf } from '../catalog/standard-classes.js';
import { DEFAULT_OBJECTS_MAX_LINKS } from '../config/app-config.js';
import { UsageLinksTx } from '../objects/structure/usage-links.repository.js';
import { DEFAULT_ROLES, DatasetError, type Dataset, type DatasetObject } from './dataset.js';
import { idValues, resolveRef, storeReferences, storeTypes } from './importer-catalog.js';
import { MasterValues, stampCreatedMasters } from './importer-masters.js';
import { recomputeLatest, storeUses } from './importer-structure.js';
import { nothingStored } from './import-progress.js';
import {
  POSTGRES_IMPORT_BLOBS,
  type ImportBlobs,
  type ImportOptions,
  type ImportProgress,
  type ImportSummary,
} from './importer-types.js';

export {
  compareIterations,
  POSTGRES_IMPORT_BLOBS,
  type ImportBlobs,
  type ImportOptions,
  type ImportProgress,
  type ImportSummary,
} from './importer-types.js';

type Tx = Prisma.TransactionClient;

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
  prisma: PrismaClient,
  data: Dataset,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { source = 'dataset', maxLinks = DEFAULT_OBJECTS_MAX_LINKS } = options;
  const importingUser = { name: options.importingUser ?? DEFAULT_IMPORTING_USER, given: !!options.importingUser };
  const blobs = options.blobs ?? POSTGRES_IMPORT_BLOBS;
  return prisma.$transaction(
    (tx) => new Importer(tx, data, importingUser, source, maxLinks, blobs, options.progress).run(),
    {
      timeout: 30 * 60 * 1000,
      maxWait: 60 * 1000,
    },
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
    private readonly tx: Tx,
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
    if (this.data.objects.some((o) => o.uses.length > 0)) await new UsageLinksTx(this.tx).lockStructures();
    this.summary.types = await storeTypes(this.tx, this.data.types);
    await this.roles();
    await this.users();
    await this.containers();
    if (this.importingUser.given) await this.importingUserId(null);
    await this.workspaces();
    const plainIds = await this.plainObjects();
    const iterationIds = await this.objects();
    // References last: they may name any record of the dataset.
    await storeReferences(this.tx, this.data, plainIds, iterationIds);
    await this.masterValues.write(this.tx, this.data.catalog);
    await stampCreatedMasters(this.tx, [...this.createdMasters]);
    await this.links();
    await this.reports();
    this.stored({});
    // One event per dataset, in its transaction: what was loaded, from where.
    await recordAuditAs(auditViaPrisma(this.tx), this.importingUser.name, 'import', {
      source: small(this.source),
      ...this.summary,
    });
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
      const existing = await this.tx.plainObject.findFirst({
        where: o.number !== null ? { cls: o.class, number: o.number } : { cls: o.class, number: null, name: o.name },
        select: { id: true },
      });
      const fields = {
        softType: o.softType,
        name: o.name,
        state: o.state,
        containerId,
        createdById,
        modifiedById,
        props: o.props as Prisma.InputJsonValue,
        ...(o.createdAt && { createdAt: o.createdAt }),
        ...((o.modifiedAt ?? o.createdAt) && { modifiedAt: o.modifiedAt ?? o.createdAt! }),
      };
      const row = existing
        ? await this.tx.plainObject.update({ where: { id: existing.id }, data: fields })
        : await this.tx.plainObject.create({ data: { cls: o.class, number: o.number, ...fields } });
      ids.push(row.id);
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
      const a = await resolveRef(this.tx, catalog, roles.a, l.a, `${path}.a`);
      const b = await resolveRef(this.tx, catalog, roles.b, l.b, `${path}.b`);
      const containerId = l.container ? await this.containerId(l.container, `${path}.container`) : null;
      const props = { ...l.props, ...(await idValues(this.tx, catalog, l.ids)) };
      await this.tx.$executeRaw`
        INSERT INTO links (class, soft_type, role_a_id, role_b_id, container_id, props)
        VALUES (${l.class}, ${l.softType}, ${a.id}, ${b.id}, ${containerId}, ${JSON.stringify(props)}::jsonb)
        ON CONFLICT (class, role_a_id, role_b_id) DO UPDATE
        SET soft_type = EXCLUDED.soft_type, container_id = EXCLUDED.container_id, props = EXCLUDED.props,
            modified_at = CASE WHEN links.props IS DISTINCT FROM EXCLUDED.props
              OR links.container_id IS DISTINCT FROM EXCLUDED.container_id THEN now() ELSE links.modified_at END`;
      this.summary.links++;
      this.stored({ links: 1 });
    }
  }

  private async roles() {
    const names = [...new Set([...DEFAULT_ROLES, ...this.data.roles])];
    await this.tx.contentRole.createMany({ data: names.map((name) => ({ name })), skipDuplicates: true });
    this.summary.roles = names.length;
  }

  private async users() {
    for (const u of this.data.users) {
      const existing = await this.tx.user.findUnique({ where: { name: u.name } });
      const passwordHash =
        existing && (await verifyPassword(u.password, existing.passwordHash))
          ? existing.passwordHash
          : await hashPassword(u.password);
      const fields = { passwordHash, admin: u.admin, fullName: u.fullName, email: u.email, disabled: u.disabled };
      const row = existing
        ? await this.tx.user.update({ where: { id: existing.id }, data: fields })
        : await this.tx.user.create({ data: { name: u.name, ...fields } });
      this.userIds.set(u.name, row.id);
      this.summary.users++;
    }
  }

  private async userId(name: string, path: string): Promise<number> {
    const known = this.userIds.get(name);
    if (known !== undefined) return known;
    const row = await this.tx.user.findUnique({ where: { name }, select: { id: true } });
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
    const row = await this.tx.user.findUnique({ where: { name }, select: { id: true } });
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
    const row = await this.tx.container.findUnique({ where: { name }, select: { id: true } });
    if (!row) throw new DatasetError(`${path}: unknown container "${name}"`);
    this.containerIds.set(name, row.id);
    return row.id;
  }

  private async containers() {
    for (const [i, c] of this.data.containers.entries()) {
      const row = await this.tx.container.upsert({
        where: { name: c.name },
        create: { name: c.name, cls: c.class, description: c.description },
        update: { cls: c.class, description: c.description },
      });
      this.containerIds.set(c.name, row.id);
      for (const [user, role] of Object.entries(c.members)) {
        const userId = await this.userId(user, `containers[${i}].members.${user}`);
        await this.tx.membership.upsert({
          where: { containerId_userId: { containerId: row.id, userId } },
          create: { containerId: row.id, userId, role },
          update: { role },
        });
      }
      for (const n of c.numbering) {
        // The counter only moves forward: re-importing must never hand out numbers again.
        await this.tx.$executeRaw`
          INSERT INTO numbering_rules (container_id, class, prefix, suffix, width, next)
          VALUES (${row.id}, ${n.class}, ${n.prefix}, ${n.suffix}, ${n.width}, ${n.next})
          ON CONFLICT (container_id, class) DO UPDATE
          SET prefix = EXCLUDED.prefix, suffix = EXCLUDED.suffix, width = EXCLUDED.width,
              next = GREATEST(numbering_rules.next, EXCLUDED.next)`;
      }
      this.summary.containers++;
    }
  }

  private async workspaces() {
    for (const [i, w] of this.data.workspaces.entries()) {
      const containerId = await this.containerId(w.container, `workspaces[${i}].container`);
      const ownerId = await this.userId(w.owner, `workspaces[${i}].owner`);
      await this.tx.workspace.upsert({
        where: { name: w.name },
        create: { name: w.name, containerId, ownerId },
        update: { containerId, ownerId },
      });
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
    await recomputeLatest(this.tx, [...touchedMasters]);
    for (const [i, o] of this.data.objects.entries()) {
      await storeUses(this.tx, o, iterationIds[i], this.maxLinks, () => {
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
    const existing = await this.tx.master.findUnique({
      where: { cls_number: { cls: o.class, number: o.number } },
      select: { id: true, subtype: true, softType: true, name: true, containerId: true },
    });
    if (!existing) {
      const row = await this.tx.master.create({
        data: { cls: o.class, number: o.number, ...fields },
        select: { id: true },
      });
      this.createdMasters.add(row.id);
      return row.id;
    }
    const changed = (Object.keys(fields) as (keyof typeof fields)[]).some((k) => existing[k] !== fields[k]);
    if (changed)
      await this.tx.master.update({ where: { id: existing.id }, data: { ...fields, modifiedAt: new Date() } });
    return existing.id;
  }

  private async iteration(o: DatasetObject, masterId: number, path: string): Promise<number> {
    const createdById = await this.creatorId(o.createdBy, path);
    const modifiedById = o.modifiedBy ? await this.userId(o.modifiedBy, `${path}.modifiedBy`) : createdById;
    const key = { masterId_version_iteration: { masterId, version: o.version, iteration: o.iteration } };
    const fields = {
      state: o.state,
      title: o.title,
      description: o.description,
      attributes: o.attributes,
      createdById,
      modifiedById,
    };
    // Absent timestamps default to now on creation and are left alone on update (idempotence).
    const row = await this.tx.iteration.upsert({
      where: key,
      create: {
        masterId,
        version: o.version,
        iteration: o.iteration,
        latest: false,
        ...fields,
        ...(o.createdAt && { createdAt: o.createdAt }),
        ...((o.modifiedAt ?? o.createdAt) && { modifiedAt: o.modifiedAt ?? o.createdAt! }),
      },
      update: {
        ...fields,
        ...(o.createdAt && { createdAt: o.createdAt }),
        ...(o.modifiedAt && { modifiedAt: o.modifiedAt }),
      },
    });
    for (const f of o.files) {
      const blob = await this.blobs.put(this.tx, f.bytes);
      const existing = await this.tx.contentItem.findUnique({
        where: { iterationId_fileName: { iterationId: row.id, fileName: f.filename } },
        select: { id: true, sha256: true },
      });
      const content = { role: f.role, mimeType: f.mimetype, size: blob.size, sha256: blob.sha256 };
      if (!existing) {
        await this.tx.contentItem.create({ data: { iterationId: row.id, fileName: f.filename, ...content } });
      } else {
        await this.tx.contentItem.update({
          where: { id: existing.id },
          data: { ...content, ...(existing.sha256 !== blob.sha256 && { modifiedAt: new Date() }) },
        });
      }
      this.summary.files++;
      this.stored({ files: 1, bytes: f.bytes.length });
    }
    return row.id;
  }

  private async reports() {
    for (const [i, r] of this.data.reports.entries()) {
      const containerId = await this.containerId(r.container, `reports[${i}].container`);
      const existing = await this.tx.reportTemplate.findUnique({ where: { name: r.name } });
      const fields = { containerId, description: r.description, qml: r.qml };
      if (!existing) await this.tx.reportTemplate.create({ data: { name: r.name, ...fields } });
      else if (
        existing.containerId !== containerId ||
        existing.description !== r.description ||
        existing.qml !== r.qml
      ) {
        await this.tx.reportTemplate.update({
          where: { id: existing.id },
          data: { ...fields, modifiedAt: new Date() },
        });
      }
      this.summary.reports++;
    }
  }
}
