import { FileStore } from '@tus/file-store';
import { DataStore, ERRORS, Upload, type KvStore } from '@tus/utils';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { uploadKey, type BlobsRepository } from '../stores/blobs.repository.js';
import { CHUNK_SIZE } from '../stores/chunk-writer.js';
import { readBlob } from '../stores/postgres-blob-store.js';
import { appendUploadPart } from '../stores/upload-parts.js';
import type { ReceivedUpload } from '../upload/upload-receipt.js';
import type { TusUploadsRepository } from './tus-uploads.repository.js';
import { Turns } from './turns.js';
import { UploadHashes } from './upload-hashes.js';

/**
 * Where the tus server keeps the parts of resumable uploads: a DataStore (create, write,
 * getUpload, remove) that also keeps each upload's running SHA-256 (UploadHashes) and hands a
 * completed upload's bytes over as they are stored (`completed`), hashed already.
 */
export interface TusStore extends DataStore {
  readonly hashes: UploadHashes;
  /** Where the part being received ends so far (taken in, not yet stored); undefined when none is. */
  receiving(id: string): number | undefined;
  /** Forgets what this instance keeps in memory of an upload that is over. */
  forget(id: string): void;
  /** The bytes of an upload whose `size` bytes are all in, and their SHA-256. */
  completed(id: string, size: number): Promise<ReceivedUpload>;
}

/** The tus extensions both stores implement (Upload-Defer-Length is refused by the controller). */
const EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

/**
 * With the postgres store (FILES_STORE=postgres, the default): each PATCH goes straight into
 * blob_chunks as the chunks of the upload's own content_blobs key (uploadKey), one transaction
 * per part (appendUploadPart), so the bytes are written once. On completion the chunks take the
 * blob's SHA-256 (BlobsRepository.adoptUpload, through FilesService.save): nothing is read or
 * written again. What the tus server keeps of an upload (size, metadata, creation date) is in
 * its tus_uploads row; its offset is what its chunks hold.
 */
export class TusChunkStore extends DataStore implements TusStore {
  readonly hashes = new UploadHashes();
  private readonly progress = new Progress();
  /** The declared length of uploads seen lately (it never changes): a query less per part. */
  private readonly lengths = new Map<string, number>();
  private readonly turns: Turns;

  constructor(
    private readonly blobs: BlobsRepository,
    private readonly uploads: TusUploadsRepository,
    /** COPY FROM, which the embedded database cannot take (one INSERT per chunk then). */
    private readonly copy: boolean,
    private readonly expiryMs: number,
    /** Parts written at once at most, each holding a pooled connection while it arrives. */
    maxParts: number,
  ) {
    super();
    this.extensions = EXTENSIONS;
    this.turns = new Turns(maxParts);
  }

  /** The row was recorded by the service (with the limits checked); the upload's info goes into it. */
  override async create(upload: Upload): Promise<Upload> {
    await this.uploads.setInfo(upload.id, upload);
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const [info, offset] = await Promise.all([
      this.uploads.info(id) as Promise<Upload | undefined>,
      this.blobs.uploadOffset(uploadKey(id), CHUNK_SIZE),
    ]);
    if (!info) throw ERRORS.FILE_NOT_FOUND;
    this.lengths.delete(id);
    this.lengths.set(id, info.size ?? 0);
    if (this.lengths.size > 10_000) this.lengths.delete(this.lengths.keys().next().value!);
    return new Upload({ ...info, offset });
  }

  /**
   * Appends a part at `offset`, which the tus server has just checked against getUpload under
   * the upload's lock; should a part of the same upload be written at the same time elsewhere,
   * the chunks' primary key lets only one of them commit.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const length = this.lengths.get(id) ?? (await this.getUpload(id)).size ?? 0;
    const hash = await this.hashes.at(id, offset, () => this.stored(id, offset));
    const body = this.progress.count(id, offset, readable);
    const part = { key: uploadKey(id), length, offset, body, hash };
    const { received, failure } = await this.turns
      .run(() => appendUploadPart(this.blobs, part, this.copy))
      .finally(() => this.progress.done(id));
    this.hashes.keep(id, offset + received, hash);
    if (failure) throw failure;
    return offset + received;
  }

  receiving(id: string): number | undefined {
    return this.progress.at(id);
  }

  /** Termination: the chunks and the row go. */
  override async remove(id: string): Promise<void> {
    await this.discard(id);
    await this.uploads.delete(id);
  }

  /** The chunks of an upload; nothing when they are gone. */
  async discard(id: string): Promise<void> {
    this.forget(id);
    await this.blobs.deleteUpload(uploadKey(id));
  }

  forget(id: string): void {
    this.hashes.drop(id);
    this.lengths.delete(id);
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  /** Expired uploads are removed by TusSweeper (rows and chunks), not by the tus server. */
  override deleteExpired(): Promise<number> {
    return Promise.resolve(0);
  }

  async completed(id: string, size: number): Promise<ReceivedUpload> {
    const hash = await this.hashes.at(id, size, () => this.stored(id, size));
    return { sha256: hash.digest('hex'), size, at: { chunks: uploadKey(id) } };
  }

  private stored(id: string, offset: number): Promise<Readable> {
    return readBlob(this.blobs.pool, uploadKey(id), offset);
  }
}

/**
 * With the vault or S3 (FILES_STORE=filesystem or s3): the parts go to a file in FILES_TUS_DIR
 * (@tus/file-store), as the bytes of those stores are written whole under their SHA-256 and
 * cannot be appended to; the running SHA-256 is kept on the way, so completion copies the file
 * into the store (BlobWriter.save) without hashing it again.
 */
export class TusFileStore extends FileStore implements TusStore {
  readonly hashes = new UploadHashes();
  private readonly progress = new Progress();

  constructor(
    private readonly dir: string,
    configstore: KvStore<Upload>,
    expiryMs: number,
  ) {
    super({ directory: dir, configstore, expirationPeriodInMilliseconds: expiryMs });
    this.extensions = EXTENSIONS;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const hash = await this.hashes.at(id, offset, () => Promise.resolve(this.stored(id, offset)));
    const counted = this.progress.count(id, offset, readable);
    async function* hashed(): AsyncGenerator<Buffer> {
      for await (const piece of counted) {
        hash.update(piece);
        yield piece;
      }
    }
    try {
      const end = await super.write(Readable.from(hashed()), id, offset);
      this.hashes.keep(id, end, hash);
      return end;
    } catch (e) {
      // Some of what the hash took may not be in the file: it is computed again next time.
      this.hashes.drop(id);
      throw e;
    } finally {
      this.progress.done(id);
    }
  }

  receiving(id: string): number | undefined {
    return this.progress.at(id);
  }

  override async remove(id: string): Promise<void> {
    this.forget(id);
    await super.remove(id);
  }

  forget(id: string): void {
    this.hashes.drop(id);
  }

  override deleteExpired(): Promise<number> {
    return Promise.resolve(0);
  }

  async completed(id: string, size: number): Promise<ReceivedUpload> {
    const hash = await this.hashes.at(id, size, () => Promise.resolve(this.stored(id, size)));
    return { sha256: hash.digest('hex'), size, at: { path: join(this.dir, id) } };
  }

  private stored(id: string, offset: number): Readable {
    return createReadStream(join(this.dir, id), { start: 0, end: offset - 1 });
  }
}

/** How far the parts being received have come, by upload. */
class Progress {
  private readonly ends = new Map<string, number>();

  /** The part's pieces, counted as they are taken from `body`, from `offset` on. */
  count(id: string, offset: number, body: Readable): AsyncIterable<Buffer> {
    const ends = this.ends;
    ends.set(id, offset);
    return (async function* counted(): AsyncGenerator<Buffer> {
      for await (const piece of body as AsyncIterable<Buffer>) {
        ends.set(id, (ends.get(id) ?? offset) + piece.length);
        yield piece;
      }
    })();
  }

  at(id: string): number | undefined {
    return this.ends.get(id);
  }

  done(id: string): void {
    this.ends.delete(id);
  }
}
