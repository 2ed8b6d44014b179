import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleDestroy,
  type OnModuleInit,
  PayloadTooLargeException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthUser } from '../auth/auth-user.js';
import { accessFromRole } from '../auth/permissions.service.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import { formatOid, OidClass } from '../common/oid.js';
import { startRuntime } from '../common/runtime.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Base64Error, decodeBase64Strict, decodedLength } from './base64.js';
import { BlobCache } from './blob-cache.js';
import { DiskCache, type KeptFile } from './disk-cache.js';
import { readBlob, readWholeBlob, storeBlob, type BlobRange, type BlobSource } from './blob-store.js';
import type { FileListDto } from './dto/files-response.dto.js';
import { guessMimeType } from './file-name.js';
import { defaultMessage, pathSegment, type HolderRef, type WriteOptions } from './files.params.js';
import {
  FilesRepository,
  type ContentItemRecord,
  type FileChangeTx,
  type HolderKey,
  type HolderLookup,
  type HolderRecord,
} from './files.repository.js';
import { matchesStrong, matchesWeak, type EntityTags, type ExpectedDigests } from './http-conditions.js';
import { largestJsonUpload } from './upload-limits.js';
import { spoolUpload, UploadAbortedError, UploadTooLargeError } from './upload-spool.js';

/** The content of a create/update: base64 text from a JSON body, or a raw request body. */
export type UploadContent = { kind: 'base64'; data: string } | { kind: 'stream'; body: Readable; length?: number };

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
 * is committed then, and applies everything (new iteration included) in one transaction.
 */
@Injectable()
export class FilesService implements OnModuleInit, OnModuleDestroy {
  /** Small files read lately; every request still passes the permission check first. */
  private readonly cache: BlobCache;
  /** Small blobs being read from the database: simultaneous downloads share one read. */
  private readonly loading = new Map<string, Promise<Buffer>>();
  /** Larger files read lately, kept on local disk. */
  private readonly disk: DiskCache;
  private readonly logger = new Logger('Files');

  constructor(
    private readonly repository: FilesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.cache = new BlobCache(config.filesCacheSize, config.filesCacheMaxFile);
    this.disk = new DiskCache(config.filesDiskCacheDir, config.filesDiskCacheSize, (m) => this.logger.warn(m));
  }

  async onModuleInit(): Promise<void> {
    await this.disk.start();
    const json = largestJsonUpload(this.config.jsonBodyLimit);
    if (json < this.config.filesMaxSize) {
      // As configured by default (a JSON body is held whole in memory): a fact, not a warning.
      this.logger.log(
        `JSON uploads carry files of up to ${json} bytes as base64 (JSON_BODY_LIMIT); ` +
          `files up to FILES_MAX_SIZE (${this.config.filesMaxSize} bytes) are sent raw as application/octet-stream`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.disk.stop();
  }

  async list(user: AuthUser, ref: HolderRef, role: string, link: LinkContext): Promise<FileListDto> {
    const runtime = startRuntime();
    if (role !== 'all') await this.checkRole(role);
    const { holder } = await this.resolve(user, ref, null, 'read');
    const items = await this.repository.listItems(holder.iterationId, role === 'all' ? null : role);
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
      _runtime: runtime(),
    };
  }

  async find(user: AuthUser, ref: HolderRef, fileName: string): Promise<StoredFile> {
    const { holder, item } = await this.resolve(user, ref, fileName, 'read');
    if (!item) throw new NotFoundException(noFile(fileName, holder));
    return { fileName: item.fileName, mimeType: item.mimeType, size: item.size, sha256: item.sha256 };
  }

  /**
   * The file's bytes (or a range of them): small files from memory once read, larger ones from
   * their copy on local disk once downloaded whole, else streamed from the database a few
   * chunks at a time.
   */
  async read(file: StoredFile, range?: BlobRange): Promise<Readable | KeptFile> {
    if (this.cache.takes(file.size)) {
      const whole = await this.smallBlob(file);
      return Readable.from([range ? whole.subarray(range.start, range.end + 1) : whole], { objectMode: false });
    }
    if (!this.disk.takes(file.size)) return readBlob(this.repository.blobPool, file.sha256, file.size, range);
    const kept = await this.disk.read(file.sha256, file.size, range);
    if (kept) return kept;
    const stream = readBlob(this.repository.blobPool, file.sha256, file.size, range);
    const whole = !range || (range.start === 0 && range.end === file.size - 1);
    return whole ? this.disk.keep(file.sha256, file.size, stream) : stream;
  }

  private smallBlob(file: StoredFile): Buffer | Promise<Buffer> {
    const hit = this.cache.get(file.sha256);
    if (hit) return hit;
    let pending = this.loading.get(file.sha256);
    if (!pending) {
      pending = readWholeBlob(this.repository.blobPool, file.sha256, file.size)
        .then((bytes) => {
          this.cache.set(file.sha256, bytes);
          return bytes;
        })
        .finally(() => this.loading.delete(file.sha256));
      // A download abandoned before the read ends must not leave an unhandled rejection.
      pending.catch(() => undefined);
      this.loading.set(file.sha256, pending);
    }
    return pending;
  }

  async save(
    user: AuthUser,
    target: FileTarget,
    options: WriteOptions,
    content: UploadContent,
    conditions: ChangeConditions,
    digests: ExpectedDigests,
  ): Promise<FileChangeResult> {
    if (options.role !== null) await this.checkRole(options.role);
    // Everything that can be refused without the bytes is refused before reading them.
    const { holder, item } = await this.resolveForChange(user, target);
    checkConditions(conditions, item, target.fileName);
    const source = await this.receive(content, digests);
    try {
      await storeBlob(this.repository.blobPool, source);
      const blob = { sha256: source.sha256, size: source.size };
      return await this.change(user, target, holder, { kind: 'save', options, blob }, conditions);
    } finally {
      await source.dispose?.();
    }
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

  /** The iteration a change applies to, after the permission and latest-iteration checks. */
  private async resolveForChange(user: AuthUser, target: FileTarget): Promise<HolderLookup> {
    const found = await this.resolve(user, target.ref, target.fileName, 'write');
    if (!found.holder.latest) await this.refuseOldIteration(found.holder);
    return found;
  }

  private async change(
    user: AuthUser,
    { ref, fileName, link }: FileTarget,
    resolved: HolderRecord,
    op: ChangeOp,
    conditions: ChangeConditions,
  ): Promise<FileChangeResult> {
    const iterate = op.kind === 'save' ? op.options.iterate : op.iterate;
    const outcome = await this.repository.change(async (tx) => {
      await tx.lockMaster(resolved.masterId);
      // Re-read under the lock: another change may have committed since the checks above.
      const key = ref.kind === 'oid' ? iterationKey(resolved) : masterKey(resolved);
      const found = await tx.findHolder(key, fileName);
      if (!found) throw new NotFoundException(noHolder(ref));
      const { holder, item: existing } = found;
      if (!holder.latest) await this.refuseOldIteration(holder, tx);
      checkConditions(conditions, existing, fileName);
      if (op.kind === 'delete' && !existing) throw new NotFoundException(noFile(fileName, holder));

      const target = iterate ? await tx.newIteration(holder, user.id) : holder.iterationId;
      if (!iterate) await tx.touchIteration(target, user.id);
      if (op.kind === 'delete') return { itemId: await tx.deleteItem(target, fileName), target, created: false };
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

  /** Decodes or spools the content and checks it against the size limit and the client's digests. */
  private async receive(
    content: UploadContent,
    digests: ExpectedDigests,
  ): Promise<BlobSource & { dispose?: () => Promise<void> }> {
    const max = this.config.filesMaxSize;
    if (content.kind === 'base64') {
      if (decodedLength(content.data) > max) throw tooLarge(max);
      let bytes: Buffer;
      try {
        bytes = decodeBase64Strict(content.data);
      } catch (e) {
        if (e instanceof Base64Error) throw new BadRequestException(`data ${e.message}`);
        throw e;
      }
      const sha256 = createHash('sha256').update(bytes).digest();
      verifyDigests(digests, sha256, digests.md5 && createHash('md5').update(bytes).digest());
      return { bytes, sha256: sha256.toString('hex'), size: bytes.length };
    }
    if (content.length !== undefined && content.length > max) throw tooLarge(max);
    let spooled;
    try {
      spooled = await spoolUpload(content.body, max, digests.md5 !== undefined);
    } catch (e) {
      if (e instanceof UploadTooLargeError) throw tooLarge(max);
      if (e instanceof UploadAbortedError) throw new BadRequestException(e.message);
      throw e;
    }
    try {
      verifyDigests(digests, spooled.sha256, spooled.md5);
    } catch (e) {
      await spooled.dispose();
      throw e;
    }
    return { path: spooled.path, size: spooled.size, sha256: spooled.sha256.toString('hex'), dispose: spooled.dispose };
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
      ref.kind === 'oid' ? { kind: 'iteration', id: ref.id } : { kind: 'number', cls: ref.cls, number: ref.number };
    const found = await this.repository.findHolderFor(key, fileName, user.id);
    if (!found || found.holder.cls !== ref.cls) throw new NotFoundException(noHolder(ref));
    const holder = found.holder;
    const access = accessFromRole(user, found.memberRole);
    if (access === 'none') throw new NotFoundException(noHolder(ref));
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

  private async checkRole(role: string): Promise<void> {
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

function tooLarge(max: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`the file is larger than the limit of ${max} bytes (FILES_MAX_SIZE)`);
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

function verifyDigests(expected: ExpectedDigests, sha256: Buffer, md5: Buffer | undefined): void {
  if (expected.sha256 && !expected.sha256.equals(sha256)) {
    throw new BadRequestException(
      `the content does not match the SHA-256 digest sent (received content has sha-256=${sha256.toString('base64')}); nothing was stored`,
    );
  }
  if (expected.md5 && md5 && !expected.md5.equals(md5)) {
    throw new BadRequestException(
      `the content does not match the MD5 digest sent (received content has md5=${md5.toString('base64')}); nothing was stored`,
    );
  }
}
