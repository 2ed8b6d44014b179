import {
  BadGatewayException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Readable } from 'node:stream';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { BlobCache } from './cache/blob-cache.js';
import {
  BlobIntegrityError,
  BlobMissingError,
  StoreUnavailableError,
  type BlobRange,
  type BlobSource,
  type BlobStore,
} from './stores/blob-store.js';
import { BlobStores } from './stores/blob-stores.js';
import { BlobWriter } from './stores/blob-writer.js';
import { DiskCache, type KeptFile } from './cache/disk-cache.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { StreamedBlob } from './upload/streamed-blob.js';
import { MEMORY_UPLOAD_MAX } from './upload/upload-buffer.js';
import type { HeldContent, StreamedContent, UploadContent } from './upload/upload-receipt.js';

/** One upload at a time may stream into PostgreSQL per this many connections of the pool. */
const STREAMS_PER_POOL = 4;

/** A blob to read: its SHA-256 and size. */
export interface BlobRef {
  sha256: string;
  size: number;
}

/**
 * File bytes: written to the configured store, read from the store that holds them through a
 * memory cache for small files and a disk cache for larger ones. Who may read or write a file is
 * decided before anything here is called.
 */
@Injectable()
export class FileContent implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  /** Small files read lately; every request still passes the permission check first. */
  private readonly cache: BlobCache;
  /** Small blobs being read from their store: simultaneous downloads share one read. */
  private readonly loading = new Map<string, Promise<Buffer>>();
  /** Larger files read lately, kept on local disk. */
  private readonly disk: DiskCache;
  readonly stores: BlobStores;
  /** Every write of bytes, whatever the upload path. */
  private readonly writer: BlobWriter;
  /** COPY FROM, which the embedded database cannot take, writes the chunks of the postgres store. */
  private readonly copyChunks: boolean;
  /** Uploads being copied into PostgreSQL as they arrive, each holding a pooled connection. */
  private streaming = 0;
  private readonly maxStreams: number;
  private readonly maxSize: number;
  private readonly logger = new Logger('Files');

  constructor(prisma: PrismaService, @Inject(APP_CONFIG) config: AppConfig) {
    this.cache = new BlobCache(config.filesCacheSize, config.filesCacheMaxFile);
    this.disk = new DiskCache(config.filesDiskCacheDir, config.filesDiskCacheSize, (m) => this.logger.warn(m));
    // On the pg pool under Prisma: see postgres-blob-store.ts.
    this.stores = new BlobStores(prisma.pgPool, config);
    this.copyChunks = !config.embeddedDatabase;
    this.writer = new BlobWriter(this.stores, this.copyChunks);
    this.maxStreams = Math.floor(config.dbPoolMax / STREAMS_PER_POOL);
    this.maxSize = config.filesMaxSize;
  }

  async onModuleInit(): Promise<void> {
    for (const warning of await this.stores.open()) this.logger.warn(warning);
    if (this.stores.current !== 'postgres')
      this.logger.log(`new file content is written to the ${this.stores.current} store`);
  }

  /** The disk cache (its folder and heartbeat) starts once the whole application is up. */
  async onApplicationBootstrap(): Promise<void> {
    await this.disk.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.disk.stop();
    await this.stores.close();
  }

  /**
   * The file's bytes (or a range of them): small files from memory once read, larger ones from
   * their copy on local disk once downloaded whole, else streamed from their store.
   */
  async read(file: BlobRef, range?: BlobRange): Promise<Readable | KeptFile> {
    return unavailableAs503(async () => {
      if (this.cache.takes(file.size)) {
        const whole = await this.smallBlob(file);
        return Readable.from([range ? whole.subarray(range.start, range.end + 1) : whole], { objectMode: false });
      }
      if (!this.disk.takes(file.size)) return (await this.storeFor(file)).read(file.sha256, file.size, range);
      const kept = await this.disk.read(file.sha256, file.size, range);
      if (kept) return kept;
      const stream = await (await this.storeFor(file)).read(file.sha256, file.size, range);
      const whole = !range || (range.start === 0 && range.end === file.size - 1);
      return whole ? this.disk.keep(file.sha256, file.size, stream) : stream;
    }, '');
  }

  /**
   * Fails as read() would when the bytes cannot be read (BlobMissingError, 503 when the store
   * cannot be reached), without reading them: for HEAD. Bytes kept in a cache are there.
   */
  async check(file: BlobRef): Promise<void> {
    await unavailableAs503(async () => {
      if (this.cache.get(file.sha256) || this.disk.holds(file.sha256)) return;
      const store = await this.storeFor(file);
      if (!(await store.has(file.sha256, file.size))) throw new BlobMissingError(store.name, file.sha256);
    }, '');
  }

  /**
   * Makes the bytes durable in a store and recorded in content_blobs (BlobWriter), before the
   * content item that uses them is written; bytes stored before (in whichever store) are not
   * written again. What is left when the content item is not written (its transaction failed)
   * is swept later. Bytes that were copied into PostgreSQL as they arrived (`streamed`) are
   * committed there; so are the chunks a resumable upload wrote there under its own key (`chunks`).
   */
  async save(source: BlobSource | StreamedContent | HeldContent, streamed?: StreamedBlob | null): Promise<void> {
    await unavailableAs503(async () => {
      if ('chunks' in source) return this.writer.adoptUpload(source.chunks, source.sha256, source.size);
      if (!('streamed' in source)) return this.writer.save(source);
      if (!streamed) throw new Error('streamed content without its stream');
      await this.writer.finishStreamed(streamed, source.sha256, source.size);
    }, '; nothing was stored');
  }

  /**
   * Starts copying a raw upload into the postgres store while it is received (see
   * StreamedBlob), when it is larger than MEMORY_UPLOAD_MAX, its length announced, COPY
   * available and fewer than one in STREAMS_PER_POOL of the pool's connections stream already;
   * null otherwise (or when the database does not answer: the upload is then spooled and
   * written after it is received, or fails there).
   */
  async stream(content: UploadContent): Promise<StreamedBlob | null> {
    if (content.kind !== 'stream' || content.length === undefined) return null;
    if (content.length <= MEMORY_UPLOAD_MAX || content.length > this.maxSize) return null;
    if (this.stores.current !== 'postgres' || !this.copyChunks || this.streaming >= this.maxStreams) return null;
    this.streaming++;
    try {
      return await this.writer.stream(content.length, () => this.streaming--);
    } catch {
      return null;
    }
  }

  /** Where raw uploads are spooled: beside the vault when it is where new bytes go (renamed, not copied). */
  get spoolDir(): string | undefined {
    return this.stores.current === 'filesystem' ? this.stores.vault?.incoming : undefined;
  }

  private async storeFor(blob: BlobRef): Promise<BlobStore> {
    const name = await this.stores.blobs.storeOf(blob.sha256);
    if (!name) throw new Error(`blob ${blob.sha256} is not recorded in content_blobs`);
    return this.stores.get(name);
  }

  private smallBlob(file: BlobRef): Buffer | Promise<Buffer> {
    const hit = this.cache.get(file.sha256);
    if (hit) return hit;
    let pending = this.loading.get(file.sha256);
    if (!pending) {
      pending = this.storeFor(file)
        .then((store) => store.readWhole(file.sha256, file.size))
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
}

/** A store that cannot be reached is answered 503, like the database; the cause goes to the log. */
export async function unavailableAs503<T>(work: () => Promise<T>, outcome: string): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof StoreUnavailableError)) throw e;
    new Logger('Files').warn(e.message);
    throw new HttpErrorWithHeaders(
      HttpStatus.SERVICE_UNAVAILABLE,
      `the file store (${e.store}) is unavailable${outcome}; retry shortly`,
      { 'Retry-After': '5' },
    );
  }
}

/**
 * A file whose bytes its store does not hold (removed behind the service's back, or cut short)
 * is answered 502, naming the file: the service answers for its store as a gateway for the
 * server behind it. The log names the blob, for the operator to restore it.
 */
export async function unreadableAs502<T>(file: BlobRef & { fileName: string }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof BlobMissingError) {
      new Logger('Files').error(
        `the content of ${file.fileName} (blob ${file.sha256}, ${file.size} bytes) is missing from the ${e.store} store`,
      );
      throw new BadGatewayException(`the content of ${file.fileName} is missing from the file store (${e.store})`);
    }
    if (e instanceof BlobIntegrityError) {
      new Logger('Files').error(`the content of ${file.fileName} (blob ${file.sha256}) is damaged: ${e.message}`);
      throw new BadGatewayException(`the content of ${file.fileName} in the file store is damaged`);
    }
    throw e;
  }
}
