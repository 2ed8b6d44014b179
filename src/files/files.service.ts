import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleInit,
} from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../auth/auth-user.js';
import { accessFromRole } from '../auth/permissions.service.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import { RequestBodyReader } from '../common/request-body.reader.js';
import { formatOid, OidClass } from '../catalog/oid.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { BlobRange } from './stores/blob-store.js';
import type { KeptFile } from './cache/disk-cache.js';
import { FileContent, unavailableAs503, unreadableAs502 } from './file-content.js';
import type { FileListDto } from './dto/files-response.dto.js';
import { fileChangeEvent } from './file-audit.js';
import { guessMimeType } from './file-name.js';
import { checkoutGuard } from '../objects/versioned/checkout-hold.js';
import { defaultMessage, pathSegment, type HolderRef, type WriteOptions } from './files.params.js';
import {
  FilesRepository,
  type ContentItemRecord,
  type FileChangeTx,
  type HolderKey,
  type HolderLookup,
  type HolderRecord,
} from './files.repository.js';
import { matchesStrong, matchesWeak, type EntityTags, type ExpectedDigests } from './download/http-conditions.js';
import { largestJsonUpload } from './upload/upload-limits.js';
import { receiveUpload, type UploadContent } from './upload/upload-receipt.js';

export type { UploadContent } from './upload/upload-receipt.js';

/** If-Match / If-None-Match of a change request. */
export interface ChangeConditions {
  ifMatch?: EntityTags;
  ifNoneMatch?: EntityTags;
}

/** Where links in answers point: the base address and the `?type=` the caller used, if any. */
export interface LinkContext {
  base: string;
  query: string;
}

/** A file named by a request. */
export interface FileTarget {
  ref: HolderRef;
  fileName: string;
  link: LinkContext;
}

export interface FileChangeResult {
  created: boolean;
  oid: string;
  url: string;
  holder: string;
  sha256: string | null;
}

/** A stored file ready to be sent. */
export interface StoredFile {
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

type ChangeOp =
  | { kind: 'save'; options: WriteOptions; blob: { sha256: string; size: number } }
  | { kind: 'delete'; iterate: boolean };

/**
 * Files of business objects: listing, reading, and changing them under the container's
 * permissions. A change locks the object's master row, checks its preconditions against what
 * is committed then, and applies everything (new iteration and audit event included) in one
 * transaction. The bytes are FileContent's (stores and caches); receiving them is upload-receipt.ts's.
 */
@Injectable()
export class FilesService implements OnModuleInit {
  private readonly logger = new Logger('Files');

  constructor(
    private readonly repository: FilesRepository,
    private readonly content: FileContent,
    private readonly bodies: RequestBodyReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const json = largestJsonUpload(this.config.jsonBodyLimit);
    if (json < this.config.filesMaxSize) {
      // As configured by default (a JSON body is held whole in memory): a fact, not a warning.
      this.logger.log(
        `JSON uploads carry files of up to ${json} bytes as base64 (JSON_BODY_LIMIT); ` +
          `files up to FILES_MAX_SIZE (${this.config.filesMaxSize} bytes) are sent raw as application/octet-stream`,
      );
    }
  }

  async list(user: AuthUser, ref: HolderRef, role: string, link: LinkContext): Promise<WithoutRuntime<FileListDto>> {
    if (role !== 'all') await this.checkRole(role);
    const { holder } = await this.resolve(user, ref, null, 'read');
    const items = await this.repository.listItems(holder, role === 'all' ? null : role);
    return {
      count: items.length,
      items: items.map((item) => ({
        url: fileUrl(link, ref.text, item.fileName),
        role: item.role,
        filename: item.fileName,
        mimetype: item.mimeType,
        size: item.size,
        oid: formatOid(OidClass.content, item.id),
        sha256: item.sha256,
      })),
      isCheckedOut: holder.checkedOutById !== null,
      checkedOutBy: holder.checkedOutBy,
    };
  }

  /** The holder `ref` names, if the caller may read it, and its files of `role` (null: all). */
  async filesOf(
    user: AuthUser,
    ref: HolderRef,
    role: string | null,
  ): Promise<{ holder: HolderRecord; items: ContentItemRecord[] }> {
    if (role !== null) await this.checkRole(role);
    const { holder } = await this.resolve(user, ref, null, 'read');
    return { holder, items: await this.repository.listItems(holder, role) };
  }

  async find(user: AuthUser, ref: HolderRef, fileName: string): Promise<StoredFile> {
    const { holder, item } = await this.resolve(user, ref, fileName, 'read');
    if (!item) throw new NotFoundException(noFile(fileName, holder));
    return { fileName: item.fileName, mimeType: item.mimeType, size: item.size, sha256: item.sha256 };
  }

  /**
   * The file's bytes (or a range of them), from a cache or the store that holds them; 502 when
   * the store does not hold them.
   */
  read(file: StoredFile, range?: BlobRange): Promise<Readable | KeptFile> {
    return unreadableAs502(file, () => this.content.read(file, range));
  }

  /** Fails as read() would, without reading the bytes (for HEAD). */
  check(file: StoredFile): Promise<void> {
    return unreadableAs502(file, () => this.content.check(file));
  }

  async save(
    user: AuthUser,
    target: FileTarget,
    options: WriteOptions,
    content: UploadContent,
    conditions: ChangeConditions,
    digests: ExpectedDigests,
  ): Promise<FileChangeResult> {
    // Everything that can be refused without the bytes is refused before reading them.
    const holder = await this.checkSave(user, target, options, conditions);
    // A large upload is copied into PostgreSQL while it arrives; rolled back unless it is saved.
    const streamed = await this.content.stream(content);
    try {
      const source = await unavailableAs503(
        () =>
          receiveUpload(content, digests, {
            max: this.config.filesMaxSize,
            spoolDir: this.content.spoolDir,
            memory: this.bodies.budget,
            tee: streamed ?? undefined,
          }),
        '; nothing was stored',
      );
      try {
        await this.content.save(source, streamed);
        const blob = { sha256: source.sha256, size: source.size };
        return await this.change(user, target, holder, { kind: 'save', options, blob }, conditions);
      } finally {
        await source.dispose?.();
      }
    } finally {
      await streamed?.abandon();
    }
  }

  /**
   * What save() checks before it reads any bytes (role, permissions, latest iteration,
   * conditions): also run by a resumable upload when it is created, long before its bytes
   * arrive and save() runs with them.
   */
  async checkSave(
    user: AuthUser,
    target: FileTarget,
    options: WriteOptions,
    conditions: ChangeConditions = {},
  ): Promise<HolderRecord> {
    if (options.role !== null) await this.checkRole(options.role);
    const { holder, item } = await this.resolveForChange(user, target);
    checkConditions(conditions, item, target.fileName);
    return holder;
  }

  async remove(
    user: AuthUser,
    target: FileTarget,
    iterate: boolean,
    conditions: ChangeConditions,
  ): Promise<FileChangeResult> {
    const { holder } = await this.resolveForChange(user, target);
    return this.change(user, target, holder, { kind: 'delete', iterate }, conditions);
  }

  /**
   * The iteration a change applies to, after the permission, check-out and latest-iteration
   * checks (made again under the lock by change(), which alone decides: these refuse early, before
   * the bytes are read).
   */
  private async resolveForChange(user: AuthUser, target: FileTarget): Promise<HolderLookup> {
    const found = await this.resolve(user, target.ref, target.fileName, 'write');
    const { holder } = found;
    checkoutGuard({ holderId: holder.checkedOutById, holder: holder.checkedOutBy }, user.id, holder.number);
    if (!holder.latest && !holder.working) await this.refuseOldIteration(holder);
    return found;
  }

  private async change(
    user: AuthUser,
    { ref, fileName, link }: FileTarget,
    resolved: HolderRecord,
    op: ChangeOp,
    conditions: ChangeConditions,
  ): Promise<FileChangeResult> {
    const outcome = await this.repository.change(resolved.masterId, async (tx) => {
      // Every write of files (uploads of any kind, deletions) passes here: another user's
      // check-out refuses it (409 naming the holder); the holder's goes to the working copy.
      const hold = await tx.lockMaster(resolved.masterId);
      const workingId =
        checkoutGuard(hold, user.id, resolved.number) === 'holder' ? await tx.workingCopyId(resolved.masterId) : null;
      // Re-read under the lock: another change may have committed since the checks above.
      const key: HolderKey =
        workingId !== null
          ? { kind: 'iteration', id: workingId }
          : ref.kind === 'oid'
            ? iterationKey(resolved)
            : masterKey(resolved);
      const found = await tx.findHolder(key, fileName);
      if (!found) throw new NotFoundException(noHolder(ref));
      const { holder, item: existing } = found;
      if (!holder.latest && !holder.working) await this.refuseOldIteration(holder, tx);
      // The working copy is changed in place: check-in makes it the new iteration.
      const iterate = !holder.working && (op.kind === 'save' ? op.options.iterate : op.iterate);
      checkConditions(conditions, existing, fileName);
      if (op.kind === 'delete' && !existing) throw new NotFoundException(noFile(fileName, holder));

      const made = iterate ? await tx.newIteration(holder, user.id, this.config.objectsReleasedStates) : null;
      const target = made?.id ?? holder.iterationId;
      if (!made) await tx.touchIteration(target, user.id);
      const audit = { userId: user.id, holder, fileName, before: existing, madeIteration: made?.iteration ?? null };
      if (op.kind === 'delete') {
        const itemId = await tx.deleteItem(target, fileName);
        await tx.audit(fileChangeEvent({ ...audit, after: null }));
        return { itemId, target, created: false };
      }
      const item = {
        role: op.options.role ?? existing?.role ?? 'SECONDARY',
        mimeType: op.options.mimetype ?? existing?.mimeType ?? guessMimeType(fileName),
        size: op.blob.size,
        sha256: op.blob.sha256,
        message: op.options.message ?? defaultMessage(fileName),
      };
      const itemId = existing
        ? await tx.updateItem(target, fileName, item)
        : await tx.createItem(target, fileName, item);
      await tx.audit(fileChangeEvent({ ...audit, after: item }));
      return { itemId, target, created: !existing };
    });
    const holderOid = formatOid(resolved.cls, outcome.target);
    return {
      created: outcome.created,
      oid: formatOid(OidClass.content, outcome.itemId),
      url: fileUrl(link, ref.kind === 'oid' ? holderOid : ref.text, fileName),
      holder: holderOid,
      sha256: op.kind === 'save' ? op.blob.sha256 : null,
    };
  }

  /**
   * The holder named by `ref` (and its file `fileName`, if given), if the caller may read it
   * (404 otherwise) and, for 'write', change it (403).
   */
  private async resolve(
    user: AuthUser,
    ref: HolderRef,
    fileName: string | null,
    need: 'read' | 'write',
  ): Promise<HolderLookup> {
    const key: HolderKey =
      ref.kind === 'oid'
        ? { kind: ref.branch ? 'branch' : 'iteration', id: ref.id }
        : { kind: 'number', cls: ref.cls, number: ref.number };
    const found = await this.repository.findHolderFor(key, fileName, user.id);
    if (!found || found.holder.cls !== ref.cls) throw new NotFoundException(noHolder(ref));
    const holder = found.holder;
    const access = accessFromRole(user, found.memberRole);
    if (access === 'none') throw new NotFoundException(noHolder(ref));
    // A working copy is its holder's alone.
    if (holder.working && holder.checkedOutById !== user.id) throw new NotFoundException(noHolder(ref));
    if (need === 'write' && access === 'read') {
      throw new ForbiddenException(
        `changing files needs author or manager rights in container '${holder.containerName}'; you may only read there`,
      );
    }
    return found;
  }

  private async refuseOldIteration(holder: HolderRecord, tx?: FileChangeTx): Promise<never> {
    const latest = (await (tx ?? this.repository).findHolder(masterKey(holder)))?.holder;
    const latestText = latest
      ? ` ${formatOid(holder.cls, latest.iterationId)} (${latest.version}.${latest.iteration})`
      : ' another one';
    throw new ConflictException(
      `${formatOid(holder.cls, holder.iterationId)} is iteration ${holder.version}.${holder.iteration} of ` +
        `${holder.number}, not the latest; files of older iterations are read-only. The latest is${latestText}`,
    );
  }

  /** 400 unless `role` is a content role. */
  async checkRole(role: string): Promise<void> {
    const roles = await this.repository.roleNames();
    if (!roles.includes(role)) {
      throw new BadRequestException(`unknown role "${role}" (known roles: ${roles.join(', ')}, or all when listing)`);
    }
  }
}

const iterationKey = (h: HolderRecord): HolderKey => ({ kind: 'iteration', id: h.iterationId });
const masterKey = (h: HolderRecord): HolderKey => ({ kind: 'master', id: h.masterId });

function fileUrl(link: LinkContext, ref: string, fileName: string): string {
  return `${link.base}/files/${pathSegment(ref)}/${encodeURIComponent(fileName)}${link.query}`;
}

function noHolder(ref: HolderRef): string {
  return ref.kind === 'oid' ? `no ${ref.cls} with OID ${ref.text}` : `no ${ref.cls} with number ${ref.number}`;
}

function noFile(fileName: string, holder: HolderRecord): string {
  return `no file '${fileName}' in ${holder.cls} ${holder.number} ${holder.version}.${holder.iteration}`;
}

function etag(sha256: string): string {
  return `"${sha256}"`;
}

/** If-Match and If-None-Match against the file as it is now (412 when they fail). */
function checkConditions(conditions: ChangeConditions, current: ContentItemRecord | null, fileName: string): void {
  const headers: Record<string, string> = current ? { ETag: etag(current.sha256) } : {};
  if (conditions.ifMatch && !matchesStrong(conditions.ifMatch, current?.sha256 ?? null)) {
    throw new HttpErrorWithHeaders(
      HttpStatus.PRECONDITION_FAILED,
      current
        ? `If-Match: file '${fileName}' has changed; its ETag is now ${etag(current.sha256)}`
        : `If-Match: file '${fileName}' does not exist`,
      headers,
    );
  }
  if (conditions.ifNoneMatch && matchesWeak(conditions.ifNoneMatch, current?.sha256 ?? null)) {
    throw new HttpErrorWithHeaders(
      HttpStatus.PRECONDITION_FAILED,
      conditions.ifNoneMatch === '*'
        ? `If-None-Match: file '${fileName}' already exists`
        : `If-None-Match: file '${fileName}' has the ETag ${etag(current!.sha256)}`,
      headers,
    );
  }
}
