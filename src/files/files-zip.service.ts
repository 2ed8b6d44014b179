import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { formatOid } from '../catalog/oid.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import {
  RelatedObjectsService,
  type CollectedObject,
  type Relation,
} from '../objects/structure/related-objects.service.js';
import type { CollectFilesBodyDto } from './dto/files-request.dto.js';
import { zipArchive, type ZipArchive, type ZipEntry } from './download/zip-archive.js';
import { safeSegment, ZipNames } from './download/zip-names.js';
import { FileContent, unreadableAs502 } from './file-content.js';
import type { HolderRef } from './files.params.js';
import { FilesRepository, type ContentItemRecord } from './files.repository.js';
import { FilesService } from './files.service.js';

/** A ZIP answer: the archive and the name to save it under. */
export interface ZipAnswer extends ZipArchive {
  fileName: string;
}

/** One file of the manifest. */
interface ManifestFile {
  path: string;
  file: string;
  role: string;
  mimetype: string;
  size: number;
  sha256: string;
}

/** One object of the manifest: included with its files, or restricted (the caller may not read it). */
type ManifestObject =
  | {
      status: 'included';
      object: string;
      class: string;
      number: string;
      version: string;
      folder: string;
      via: Relation | null;
      parent: string | null;
      files: ManifestFile[];
    }
  | { status: 'restricted'; via: Relation | null; parent: string | null };

const MANIFEST = 'manifest.json';

/**
 * ZIP downloads: the files of one object (`GET /files/<ref>?format=zip`) and collections of
 * related objects' files (`POST /files/collect`), one folder per object and a manifest.json.
 * Everything (which objects, which files, their sizes and the limits) is decided before the
 * first byte, so a request past a limit is answered 400; then the bytes are streamed one file
 * at a time from the store holding them (FileContent, as a download reads them).
 */
@Injectable()
export class FilesZipService {
  constructor(
    private readonly files: FilesService,
    private readonly repository: FilesRepository,
    private readonly content: FileContent,
    private readonly related: RelatedObjectsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The files of one object (of `role`, or all), at the top of the archive. */
  async objectZip(user: AuthUser, ref: HolderRef, role: string | null): Promise<ZipAnswer> {
    const { holder, items } = await this.files.filesOf(user, ref, role);
    this.checkBytes(items, role === null ? 'choose a role (role=PRIMARY)' : 'choose another role');
    const names = new ZipNames();
    names.take('', MANIFEST);
    const files = items.map((item) => ({ item, path: names.take('', item.fileName) }));
    const manifest = {
      object: formatOid(holder.cls, holder.iterationId),
      class: holder.cls,
      number: holder.number,
      version: `${holder.version}.${holder.iteration}`,
      role: role ?? 'all',
      files: files.map(({ item, path }) => manifestFile(item, path)),
    };
    return this.archive(`${safeSegment(holder.number)}.zip`, manifest, files);
  }

  /** The files of the objects a collection names (see RelatedObjectsService), a folder per object. */
  async collect(user: AuthUser, body: CollectFilesBodyDto): Promise<ZipAnswer> {
    const role = body.role === undefined || body.role === 'all' ? null : body.role;
    if (role !== null) await this.files.checkRole(role);
    const follow = new Set<Relation>(body.follow ?? ['structure']);
    const levels = body.levels ?? 1;
    const max = this.config.filesZipMaxObjects;
    const { objects, exceeded } = await this.related.collect(user, {
      root: body.root,
      type: body.type,
      follow,
      levels,
      maxObjects: max,
    });
    if (exceeded) {
      throw new BadRequestException(
        `the collection holds more than ${max} objects (FILES_ZIP_MAX_OBJECTS); narrow it: ` +
          `${levels > 1 ? `fewer levels (levels=${levels - 1}), ` : ''}fewer relations to follow, or a root lower in the structure`,
      );
    }
    const readable = objects.filter((o) => o.readable);
    const items = await this.repository.itemsOf(
      readable.map((o) => o.iterationId),
      role,
    );
    this.checkBytes(
      items,
      [role === null ? 'a role (role=PRIMARY)' : null, levels > 1 ? `fewer levels (levels=${levels - 1})` : null]
        .filter((x) => x !== null)
        .concat('fewer relations to follow')
        .join(', '),
    );
    const byIteration = new Map<number, ContentItemRecord[]>();
    for (const item of items) {
      const list = byIteration.get(item.iterationId);
      if (list) list.push(item);
      else byIteration.set(item.iterationId, [item]);
    }
    const names = new ZipNames();
    names.take('', MANIFEST);
    const oidOf = (o: CollectedObject) => formatOid(o.cls, o.iterationId);
    const parentOf = (o: CollectedObject) => (o.parent === null ? null : oidOf(objects[o.parent]));
    const files: { item: ContentItemRecord; path: string }[] = [];
    const listed: ManifestObject[] = objects.map((o) => {
      if (!o.readable) return { status: 'restricted', via: o.via, parent: parentOf(o) };
      const folder = names.folder(`${o.number} ${o.version}.${o.iteration}`);
      const own = (byIteration.get(o.iterationId) ?? []).map((item) => ({
        item,
        path: names.take(folder, item.fileName),
      }));
      files.push(...own);
      return {
        status: 'included',
        object: oidOf(o),
        class: o.cls,
        number: o.number,
        version: `${o.version}.${o.iteration}`,
        folder,
        via: o.via,
        parent: parentOf(o),
        files: own.map(({ item, path }) => manifestFile(item, path)),
      };
    });
    const root = objects[0];
    const manifest = {
      root: oidOf(root),
      follow: [...follow],
      levels,
      role: role ?? 'all',
      objects: listed,
    };
    return this.archive(`${safeSegment(root.number)}-files.zip`, manifest, files);
  }

  private checkBytes(items: ContentItemRecord[], narrow: string): void {
    const total = items.reduce((sum, i) => sum + i.size, 0);
    const max = this.config.filesZipMaxBytes;
    if (total > max) {
      throw new BadRequestException(
        `the files come to ${total} bytes, more than ${max} (FILES_ZIP_MAX_BYTES); narrow it: ${narrow}`,
      );
    }
  }

  private archive(fileName: string, manifest: object, files: { item: ContentItemRecord; path: string }[]): ZipAnswer {
    const entries: ZipEntry[] = files.map(({ item, path }) => ({
      path,
      size: item.size,
      open: () => unreadableAs502(item, () => this.content.read(item)),
    }));
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    return { fileName, ...zipArchive({ path: MANIFEST, bytes }, entries, new Date()) };
  }
}

function manifestFile(item: ContentItemRecord, path: string): ManifestFile {
  return { path, file: item.fileName, role: item.role, mimetype: item.mimeType, size: item.size, sha256: item.sha256 };
}
